#ifndef CNCURSESW_H
#define CNCURSESW_H

/* The one C shim over ncursesw: the wide-character API, plus what Swift cannot import
   (macros, stdscr, variadic or bit-built constants) and the async-signal-safe handlers. */

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <wchar.h>

/* Sets the locale from the environment and makes sure the character set is UTF-8
   (falls back to C.UTF-8), so wide characters are written as UTF-8. Returns 1 when UTF-8. */
int tc_setup_locale(void);

/* Starts curses on the terminal: raw, no echo, keypad, hidden cursor, short escape delay.
   Also arranges for the terminal to be restored at exit and when the process dies of
   SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT or SIGFPE (a Swift trap, for instance).
   Returns 0 on success, -1 when curses cannot start (e.g. TERM names an unknown terminal). */
int tc_start(int escape_delay_ms, int want_colors, int want_mouse);

/* Restores the terminal and the previous crash handlers; safe to call more than once. */
void tc_stop(void);

/* Suspends for job control (Ctrl-Z) with the default action of SIGTSTP, so a job-control
   shell takes over (and an orphaned process group simply carries on), then repaints
   everything on resume. */
void tc_suspend(void);

/* Number of colours the terminal has after tc_start (0 when colours are off). */
int tc_colors(void);

/* A colour pair for foreground and background (-1 is the terminal default). */
int tc_pair(int fg, int bg);

/* The attribute bits for the given text attributes. */
attr_t tc_attributes(int bold, int dim, int italic, int underline, int reverse);

/* Draws one cell: `count` wide characters, the first spacing and the rest combining
   (those with a width are dropped, as curses cannot stack them). Returns the columns curses
   gave the first character (its `wcwidth`: 1 or 2, 0 for a lone mark), or ERR. */
int tc_put_cell(int y, int x, const wchar_t *chars, int count, attr_t attributes, int pair);

/* Flushes what was drawn to the terminal, leaving the cursor at row y, column x, shown; hidden
   when y is negative (or the move fails). */
void tc_refresh_placing_cursor(int y, int x);

/* Forces the next refresh to repaint the whole screen. */
void tc_clear_on_next_refresh(void);

/* The terminal's string capability NAME (terminfo), or NULL when it has none. */
const char *tc_string_capability(const char *name);

/* Whether the terminal has the boolean capability NAME. */
int tc_flag_capability(const char *name);

/* CAPABILITY with its parameters P1 and P2 filled in (tiparm). The result lives until the next
   call. */
const char *tc_expand(const char *capability, int p1, int p2);

/* The columns the C library gives the character VALUE (wcwidth): 1 or 2, 0 for a mark, -1 for
   one it cannot print. */
int tc_columns(unsigned int value);

/* Reads the terminfo entry of TERM without starting curses (for tests). Returns 0 on success. */
int tc_use_terminfo(const char *term);

/* The descriptor curses draws through: a dying process silences it, so frames written on it
   stop with the crash. -1 before tc_start. */
int tc_screen_fd(void);

/* Makes curses draw the whole screen blank now (after a resize, when frames are written
   without curses). */
void tc_clear_now(void);

/* Reads the terminal size from the tty and tells curses about it. Returns 0 on success. */
int tc_update_size(int *rows, int *cols);

/* Installs handlers that write 'W' (SIGWINCH) or 'T' (SIGTERM, SIGINT, SIGHUP) to `fd`,
   which should be non-blocking. */
void tc_install_signal_pipe(int fd);

/* Reads a key without waiting: returns ERR, OK (character in *ch) or KEY_CODE_YES. */
int tc_get_key(wint_t *ch);

/* The key codes of bracketed paste's markers (tc_start turns it on): what comes between them
   was pasted. Far above ncurses' own and its extended keys' codes. */
#define TC_KEY_PASTE_START 0x7100
#define TC_KEY_PASTE_END 0x7101

/* Decodes the newest pending mouse event and takes it off ncurses' queue (ERR when none is left).
   kind: 1 press, 2 wheel up, 3 wheel down, 4 release, 5 motion with the button held (a drag),
   0 other. */
int tc_read_mouse(int *y, int *x, int *kind);

/* The terminfo name of a key code, e.g. "kLFT3" for Alt+Left; NULL when unknown. */
const char *tc_key_name(int code);

#endif
