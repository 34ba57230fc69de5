#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include "CNcursesw.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <ncursesw/term.h>
#include <termios.h>
#include <unistd.h>

static SCREEN *screen = NULL;
/* Curses draws through its own duplicate of the terminal, not stdout, so a dying process can
   silence every draw at once (another thread may be mid-frame) while stdout stays the terminal
   for the crash report that follows. */
static FILE *screen_output = NULL;
static int started = 0;
static volatile sig_atomic_t signal_fd = -1;

/* What a dying process writes to leave the terminal usable, with the tty settings from before
   curses started. Both are prepared in tc_start, as a signal handler may only call
   async-signal-safe functions (write, tcsetattr, sigaction, raise). */
static char exit_sequence[512];
static size_t exit_sequence_length = 0;
static struct termios original_termios;
static int have_original_termios = 0;

static const int fatal_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE};
#define FATAL_SIGNAL_COUNT (sizeof fatal_signals / sizeof fatal_signals[0])
/* The handlers installed before ours (Swift's backtracer, or the defaults), chained to after
   the terminal is restored so a crash report still appears, on the normal screen. */
static struct sigaction previous_fatal_actions[FATAL_SIGNAL_COUNT];
static int fatal_handlers_installed = 0;

int tc_setup_locale(void) {
    setlocale(LC_ALL, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) {
        setlocale(LC_CTYPE, "C.UTF-8");
    }
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static int append_exit_byte(int c) {
    if (exit_sequence_length < sizeof exit_sequence) exit_sequence[exit_sequence_length++] = (char)c;
    return c;
}

static void append_exit_capability(const char *name) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) return;
    size_t start = exit_sequence_length;
    tputs(value, 1, append_exit_byte);  /* expands padding such as $<5> */
    if (exit_sequence_length == sizeof exit_sequence) exit_sequence_length = start;  /* never half a sequence */
}

static void append_exit_text(const char *text) {
    size_t length = strlen(text);
    if (exit_sequence_length + length > sizeof exit_sequence) return;
    memcpy(exit_sequence + exit_sequence_length, text, length);
    exit_sequence_length += length;
}

static void on_fatal_signal(int signo) {
    int saved_errno = errno;
    if (screen_output != NULL) {
        int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null_fd >= 0) {
            dup2(null_fd, fileno(screen_output));
            close(null_fd);
        }
    }
    if (exit_sequence_length > 0) {
        ssize_t ignored = write(STDOUT_FILENO, exit_sequence, exit_sequence_length);
        (void)ignored;
    }
    if (have_original_termios) tcsetattr(STDIN_FILENO, TCSANOW, &original_termios);
    for (size_t i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        if (fatal_signals[i] == signo) sigaction(signo, &previous_fatal_actions[i], NULL);
    }
    errno = saved_errno;
    raise(signo);
    /* Still alive: the previous handler returned (Swift's backtracer does, expecting the
       faulting instruction to fault again) or the signal came from kill. Die of it now. */
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signo, &default_action, NULL);
    raise(signo);
}

static void install_fatal_handlers(void) {
    if (fatal_handlers_installed) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    /* Reset to the default first, so a fault inside the handler still ends the process. */
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (size_t i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        sigaction(fatal_signals[i], NULL, &previous_fatal_actions[i]);
        /* A signal the process ignores on purpose stays ignored. */
        if (previous_fatal_actions[i].sa_handler != SIG_IGN) sigaction(fatal_signals[i], &action, NULL);
    }
    fatal_handlers_installed = 1;
}

static void remove_fatal_handlers(void) {
    if (!fatal_handlers_installed) return;
    for (size_t i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        sigaction(fatal_signals[i], &previous_fatal_actions[i], NULL);
    }
    fatal_handlers_installed = 0;
}

static int mouse_wanted = 0;

/* Button-event tracking (1002): motion is reported only while a button is held (a drag), so a
   pointer passing over the dashboard sends nothing. ncurses itself sets and resets only 1000, and
   some terminals keep 1002 on until told otherwise. */
static void button_events(int on) {
    if (!mouse_wanted) return;
    fputs(on ? "\x1b[?1002h" : "\x1b[?1002l", screen_output);
    fflush(screen_output);
}

static void bracketed_paste(int on) {
    fputs(on ? "\x1b[?2004h" : "\x1b[?2004l", screen_output);
    fflush(screen_output);
}

int tc_start(int escape_delay_ms, int want_colors, int want_mouse) {
    static int registered_at_exit = 0;
    if (started) return 0;
    have_original_termios = tcgetattr(STDIN_FILENO, &original_termios) == 0;
    /* Unlike initscr, which exits the process, newterm reports an unknown terminal with NULL. */
    if (screen_output == NULL) {
        int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        screen_output = fd < 0 ? NULL : fdopen(fd, "w");
        if (screen_output == NULL) {
            if (fd >= 0) close(fd);
            return -1;
        }
    }
    if (screen == NULL) screen = newterm(NULL, screen_output, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    started = 1;
    if (!registered_at_exit) registered_at_exit = atexit(tc_stop) == 0;

    exit_sequence_length = 0;
    append_exit_capability("sgr0");
    append_exit_capability("cnorm");
    if (want_mouse) append_exit_text("\x1b[?1000l\x1b[?1002l\x1b[?1006l");
    append_exit_text("\x1b[?2004l");
    append_exit_capability("rmkx");
    append_exit_capability("rmcup");
    install_fatal_handlers();

    /* ncurses 6.4 flushes its output after every cursor movement until the screen has been
       suspended once (_nc_mvcur while _endwin is ewInitial), so a frame went out as one write per
       row it touched. One endwin and refresh before anything is drawn makes a frame one write.
       Before the modes below: endwin leaves keypad mode, which curses would enter again only at
       the first read, and arrows typed before it would come in the other mode's form. */
    refresh();
    endwin();
    refresh();
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
    /* Bracketed paste: pasted text comes between these two, which curses reads as two keys. */
    define_key("\x1b[200~", TC_KEY_PASTE_START);
    define_key("\x1b[201~", TC_KEY_PASTE_END);
    /* The cursor keys as a terminal that ignores the keypad's application mode sends them (CSI,
       not SS3): terminfo names one form only, and the other would read as Alt+[ and a letter. */
    define_key("\x1b[A", KEY_UP);
    define_key("\x1b[B", KEY_DOWN);
    define_key("\x1b[C", KEY_RIGHT);
    define_key("\x1b[D", KEY_LEFT);
    define_key("\x1b[H", KEY_HOME);
    define_key("\x1b[F", KEY_END);
    define_key("\x1bOA", KEY_UP);
    define_key("\x1bOB", KEY_DOWN);
    define_key("\x1bOC", KEY_RIGHT);
    define_key("\x1bOD", KEY_LEFT);
    define_key("\x1bOH", KEY_HOME);
    define_key("\x1bOF", KEY_END);
    bracketed_paste(1);
    mouse_wanted = want_mouse;
    if (want_mouse) {
        mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED | REPORT_MOUSE_POSITION, NULL);
        mouseinterval(0);
        button_events(1);
    }
    return 0;
}

void tc_stop(void) {
    if (!started) return;
    started = 0;
    button_events(0);
    bracketed_paste(0);
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    remove_fatal_handlers();
}

void tc_suspend(void) {
    /* ncurses installs its own SIGTSTP handler; stop with the default action instead, so a
       job-control shell sees an ordinary stop and an orphaned process group carries on. The
       calling thread may be a dispatch worker, which blocks SIGTSTP: unblock it meanwhile, or
       the signal would stay pending. */
    struct sigaction default_action, previous_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigset_t stop, previous_mask;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTSTP);
    def_prog_mode();
    button_events(0);
    bracketed_paste(0);
    endwin();
    sigaction(SIGTSTP, &default_action, &previous_action);
    pthread_sigmask(SIG_UNBLOCK, &stop, &previous_mask);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &previous_mask, NULL);
    sigaction(SIGTSTP, &previous_action, NULL);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    button_events(1);
    bracketed_paste(1);
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
    /* ERR here can also mean the cell was written in the bottom-right corner and the cursor
       could not advance, so the result says nothing about the width. */
    (void)mvadd_wch(y, x, &cell);
    int width = wcwidth(text[0]);  /* what ncurses measures the character with */
    return width < 0 ? 1 : width;
}

void tc_refresh_placing_cursor(int y, int x) {
    int shown = y >= 0;
    leaveok(stdscr, shown ? FALSE : TRUE);
    if (shown && move(y, x) == ERR) {
        shown = 0;
        leaveok(stdscr, TRUE);
    }
    /* Shown after the refresh, which moved it: curs_set writes at once. */
    if (!shown) curs_set(0);
    refresh();
    if (shown) curs_set(1);
}

void tc_clear_on_next_refresh(void) { clearok(curscr, TRUE); }

const char *tc_string_capability(const char *name) {
    const char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}

int tc_flag_capability(const char *name) { return tigetflag(name) > 0; }

const char *tc_expand(const char *capability, int p1, int p2) { return tiparm(capability, p1, p2); }

int tc_columns(unsigned int value) { return wcwidth((wchar_t)value); }

int tc_use_terminfo(const char *term) {
    int status = 0;
    return setupterm(term, -1, &status) == OK ? 0 : -1;
}

int tc_screen_fd(void) { return screen_output == NULL ? -1 : fileno(screen_output); }

void tc_clear_now(void) {
    clearok(curscr, TRUE);
    refresh();
}

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
    int saved_errno = errno;
    char byte = signo == SIGWINCH ? 'W' : 'T';
    int fd = signal_fd;
    if (fd >= 0) {
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
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
    /* ncurses reports motion with a button held as the position alone, and only button-event
       tracking (1002) is on: motion is a drag. */
    if (event.bstate & REPORT_MOUSE_POSITION) *kind = 5;
    else if (event.bstate & BUTTON4_PRESSED) *kind = 2;
    else if (event.bstate & BUTTON5_PRESSED) *kind = 3;
    else if (event.bstate & BUTTON1_PRESSED) *kind = 1;
    else if (event.bstate & BUTTON1_RELEASED) *kind = 4;
    else *kind = 0;
    return OK;
}

const char *tc_key_name(int code) { return keyname(code); }
