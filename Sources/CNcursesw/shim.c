#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNcursesw.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int started = 0;
static int signal_fd = -1;

int tc_setup_locale(void) {
    setlocale(LC_ALL, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) {
        setlocale(LC_CTYPE, "C.UTF-8");
    }
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

int tc_start(int escape_delay_ms, int want_colors, int want_mouse) {
    if (initscr() == NULL) return -1;
    started = 1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    set_escdelay(escape_delay_ms);
    if (want_colors && has_colors()) {
        start_color();
        use_default_colors();
    }
    if (want_mouse) {
        mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(0);
    }
    return 0;
}

void tc_stop(void) {
    if (!started) return;
    started = 0;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
}

void tc_suspend(void) {
    def_prog_mode();
    endwin();
    kill(getpid(), SIGSTOP);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
}

int tc_colors(void) { return has_colors() && started ? COLORS : 0; }

int tc_pair(int fg, int bg) {
    int pair = alloc_pair(fg, bg);
    return pair < 0 ? 0 : pair;
}

attr_t tc_attributes(int bold, int dim, int italic, int underline, int reverse) {
    attr_t a = A_NORMAL;
    if (bold) a |= A_BOLD;
    if (dim) a |= A_DIM;
    if (italic) a |= A_ITALIC;
    if (underline) a |= A_UNDERLINE;
    if (reverse) a |= A_REVERSE;
    return a;
}

int tc_put_cell(int y, int x, const wchar_t *chars, int count, attr_t attributes, int pair) {
    wchar_t text[CCHARW_MAX + 1];
    int n = 0;
    for (int i = 0; i < count && n < CCHARW_MAX; i++) {
        if (i > 0 && wcwidth(chars[i]) != 0) continue;
        text[n++] = chars[i];
    }
    text[n] = L'\0';
    cchar_t cell;
    if (setcchar(&cell, text, attributes, 0, &pair) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}

void tc_refresh(void) { refresh(); }

void tc_clear_on_next_refresh(void) { clearok(curscr, TRUE); }

int tc_update_size(int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) {
        *rows = LINES;
        *cols = COLS;
        return -1;
    }
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    if (started) resizeterm(ws.ws_row, ws.ws_col);
    return 0;
}

static void on_signal(int signo) {
    char byte = signo == SIGWINCH ? 'W' : 'T';
    if (signal_fd >= 0) {
        ssize_t ignored = write(signal_fd, &byte, 1);
        (void)ignored;
    }
}

void tc_install_signal_pipe(int fd) {
    signal_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
}

int tc_get_key(wint_t *ch) { return get_wch(ch); }

int tc_read_mouse(int *y, int *x, int *kind) {
    MEVENT event;
    if (getmouse(&event) != OK) return ERR;
    *y = event.y;
    *x = event.x;
    if (event.bstate & BUTTON4_PRESSED) *kind = 2;
    else if (event.bstate & BUTTON5_PRESSED) *kind = 3;
    else if (event.bstate & BUTTON1_PRESSED) *kind = 1;
    else *kind = 0;
    return OK;
}

const char *tc_key_name(int code) { return keyname(code); }
