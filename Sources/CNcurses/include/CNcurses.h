// The parts of ncurses (wide-character build) LeakLabTerminal uses, plus small
// C functions for what Swift cannot import: C globals (stdscr, COLOR_PAIRS),
// function-like macros (attributes, setcchar), signal masks and handlers.
#ifndef CNCURSES_H
#define CNCURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
/// Makes a SIGWINCH also write a byte to a pipe (after curses' own handler,
/// which makes the next wgetch return KEY_RESIZE), so that a loop asleep
/// elsewhere than in wgetch wakes; returns the pipe's read end (-1 on failure).
/// Call after cn_newterm, which installs curses' handler.
int cn_install_resize_wakeup(void);
/// Reads away the bytes waiting in the resize pipe.
void cn_drain_resize_wakeup(void);

#endif
#include <ncursesw/curses.h>
#include <stdbool.h>
#include <wchar.h>

/// The standard screen of the current terminal.
WINDOW *cn_stdscr(void);
/// The number of colour pairs the terminal supports (COLOR_PAIRS).
int cn_color_pairs(void);
/// The number of colours the terminal supports (COLORS).
int cn_colors(void);
/// The attribute bits for the given text attributes (A_BOLD, A_DIM, ...).
attr_t cn_attributes(bool bold, bool dim, bool reverse, bool underline);

/// Sets the locale from the environment; returns whether its character set is UTF-8.
bool cn_setup_locale(void);
/// Starts curses on stdin/stdout with terminal type `type` (NULL: $TERM).
/// Returns NULL, without exiting, when the terminal type is unknown.
SCREEN *cn_newterm(const char *type);

/// Turns on mouse reporting for button-1 presses and releases and the wheel,
/// with no click-interval delay; returns whether the terminal reports the mouse.
/// Also keeps the bytes that turn it off, which the signal handlers send.
bool cn_enable_mouse(void);
/// Reads the mouse event behind a KEY_MOUSE: stores its cell in `x`, `y` and
/// returns 0 for a press, 1 a release, 2 wheel up, 3 wheel down, -1 anything else.
int cn_read_mouse(int *x, int *y);

/// Writes one cell: `count` wide characters (a spacing character then combining
/// characters) with attributes and colour pair, at row `y`, column `x`.
int cn_put_cell(WINDOW *window, int y, int x, const wchar_t *chars, int count, attr_t attributes, short pair);

/// glibc's wcwidth in the C.UTF-8 locale (for comparison in tests); -1 when unprintable.
int cn_wcwidth_utf8(wchar_t character);

/// Unblocks SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP and SIGCONT for
/// the calling thread (a process started from a Swift thread can inherit them blocked).
void cn_unblock_signals(void);
/// Saves the terminal's shell mode; call before cn_newterm.
void cn_save_shell_mode(void);
/// Installs the restore-on-exit machinery once: handlers for SIGINT, SIGTERM,
/// SIGHUP and SIGQUIT that restore the terminal and exit with 128 + signal,
/// handlers for crash signals that restore and pass the signal on, and an atexit hook.
void cn_install_restore_handlers(void);
/// Records that curses is active (`true`: the handlers must restore the terminal)
/// and captures the terminal's restore sequences.
void cn_set_active(bool active);
/// Restores the terminal with endwin if curses is active (and clears the screen
/// when the terminal has no alternate screen, as vt100); safe to call twice.
void cn_restore(void);

/// Makes a SIGWINCH also write a byte to a pipe (after curses' own handler,
/// which makes the next wgetch return KEY_RESIZE), so that a loop asleep
/// elsewhere than in wgetch wakes; returns the pipe's read end (-1 on failure).
/// Call after cn_newterm, which installs curses' handler.
int cn_install_resize_wakeup(void);
/// Reads away the bytes waiting in the resize pipe.
void cn_drain_resize_wakeup(void);

#endif
