#define _GNU_SOURCE
#include "CNcurses.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <term.h>
#include <unistd.h>

WINDOW *cn_stdscr(void) { return stdscr; }
int cn_color_pairs(void) { return COLOR_PAIRS; }
int cn_colors(void) { return COLORS; }

attr_t cn_attributes(bool bold, bool dim, bool reverse, bool underline) {
  attr_t result = A_NORMAL;
  if (bold) result |= A_BOLD;
  if (dim) result |= A_DIM;
  if (reverse) result |= A_REVERSE;
  if (underline) result |= A_UNDERLINE;
  return result;
}

bool cn_setup_locale(void) {
  setlocale(LC_ALL, "");
  const char *codeset = nl_langinfo(CODESET);
  return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

SCREEN *cn_newterm(const char *type) { return newterm(type, stdout, stdin); }

// The bytes that turn the terminal's mouse reporting off again, captured when
// it is turned on: a signal handler cannot ask curses for them (see below).
static char mouse_off_sequence[64];
static size_t mouse_off_length = 0;

// What ncurses sends to switch xterm-style mouse reporting: the terminal's `XM`
// string capability if it has one, else the form its numeric `XM` names, else
// plain X10 reporting. Its parameter is 1 for on, 0 for off.
static const char *mouse_switch_format(void) {
  const char *string = tigetstr("XM");
  if (string != NULL && string != (char *)-1 && string[0] != '\0') return string;
  if (tigetnum("XM") == 1006) return "\033[?1006;1000%?%p1%{1}%=%th%el%;";
  return "\033[?1000%?%p1%{1}%=%th%el%;";
}

bool cn_enable_mouse(void) {
  mmask_t mask = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
  mask |= BUTTON5_PRESSED;
#endif
  mouseinterval(0);
  mouse_off_length = 0;
  if (mousemask(mask, NULL) == 0) return false;
  const char *off = tiparm(mouse_switch_format(), 0);
  if (off != NULL) {
    size_t length = strlen(off);
    if (length < sizeof(mouse_off_sequence)) {
      memcpy(mouse_off_sequence, off, length);
      mouse_off_length = length;
    }
  }
  return true;
}


int cn_read_mouse(int *x, int *y) {
  MEVENT event;
  if (getmouse(&event) != OK) return -1;
  *x = event.x;
  *y = event.y;
  if (event.bstate & BUTTON1_PRESSED) return 0;
  if (event.bstate & BUTTON1_RELEASED) return 1;
  if (event.bstate & BUTTON4_PRESSED) return 2;
#ifdef BUTTON5_PRESSED
  if (event.bstate & BUTTON5_PRESSED) return 3;
#endif
  return -1;
}

int cn_put_cell(WINDOW *window, int y, int x, const wchar_t *chars, int count, attr_t attributes, short pair) {
  wchar_t text[CCHARW_MAX + 1];
  int n = count < CCHARW_MAX ? count : CCHARW_MAX;
  for (int i = 0; i < n; i++) text[i] = chars[i];
  text[n] = L'\0';
  cchar_t cell;
  if (setcchar(&cell, text, attributes, pair, NULL) == ERR) return ERR;
  return mvwadd_wch(window, y, x, &cell);
}

int cn_wcwidth_utf8(wchar_t character) {
  static locale_t utf8 = (locale_t)0;
  if (utf8 == (locale_t)0) utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  if (utf8 == (locale_t)0) return -2;
  locale_t previous = uselocale(utf8);
  int width = wcwidth(character);
  uselocale(previous);
  return width;
}

// MARK: Restoring the terminal on every exit path

static const int terminating_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static volatile sig_atomic_t active = 0;
static bool shell_mode_saved = false;
static struct termios shell_mode;
// The bytes endwin would send (attributes off, keypad off, cursor visible,
// leave the alternate screen), captured while curses is active so that a signal
// handler can restore the terminal with write(2) and tcsetattr(3) alone, both
// async-signal-safe.
static char restore_sequence[256];
static size_t restore_length = 0;
// Sent after endwin: clear_screen when the terminal has no alternate screen
// (vt100: without it the app's last frame would stay under the shell prompt),
// then cursor_normal alone: leaving the alternate screen can bring back the
// cursor state saved when it was entered (tmux does), which was hidden.
static char cursor_sequence[64];
static size_t cursor_length = 0;
static struct sigaction previous_crash_actions[COUNT(crash_signals)];

void cn_unblock_signals(void) {
  sigset_t set;
  sigemptyset(&set);
  int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};
  for (size_t i = 0; i < COUNT(signals); i++) sigaddset(&set, signals[i]);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void cn_save_shell_mode(void) {
  shell_mode_saved = tcgetattr(STDIN_FILENO, &shell_mode) == 0;
}

static bool has_capability(const char *name) {
  char *value = tigetstr(name);
  return value != NULL && value != (char *)-1 && value[0] != '\0';
}

// Appends a capability's bytes without its padding delays (`$<50>` in vt100's
// clear): they are written raw, not through tputs, which would interpret them.
static void append_capability(char *buffer, size_t capacity, size_t *length, const char *name) {
  char *value = tigetstr(name);
  if (value == NULL || value == (char *)-1) return;
  for (const char *p = value; *p != '\0'; p++) {
    if (p[0] == '$' && p[1] == '<') {
      const char *end = strchr(p, '>');
      if (end != NULL) {
        p = end;
        continue;
      }
    }
    if (*length + 1 >= capacity) return;
    buffer[(*length)++] = *p;
  }
}

static void write_all(const char *bytes, size_t length) {
  size_t written = 0;
  while (written < length) {
    ssize_t n = write(STDOUT_FILENO, bytes + written, length - written);
    if (n <= 0) break;
    written += (size_t)n;
  }
}

static void restore_from_signal(void) {
  if (!active) return;
  active = 0;
  // endwin turns the mouse off on its own; from a signal, these bytes must.
  write_all(mouse_off_sequence, mouse_off_length);
  write_all(restore_sequence, restore_length);
  if (shell_mode_saved) tcsetattr(STDIN_FILENO, TCSANOW, &shell_mode);
}

static void on_terminating_signal(int signo) {
  restore_from_signal();
  _exit(128 + signo);
}

static void on_crash_signal(int signo) {
  restore_from_signal();
  for (size_t i = 0; i < COUNT(crash_signals); i++) {
    if (crash_signals[i] == signo) sigaction(signo, &previous_crash_actions[i], NULL);
  }
  // Delivered to the previous handler (the Swift runtime's backtracer, or the
  // default action) as soon as this handler returns.
  raise(signo);
}

static void restore_at_exit(void) { cn_restore(); }

void cn_install_restore_handlers(void) {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  sigemptyset(&action.sa_mask);
  action.sa_handler = on_terminating_signal;
  for (size_t i = 0; i < COUNT(terminating_signals); i++) sigaction(terminating_signals[i], &action, NULL);
  action.sa_handler = on_crash_signal;
  action.sa_flags = SA_ONSTACK;
  for (size_t i = 0; i < COUNT(crash_signals); i++) {
    sigaction(crash_signals[i], &action, &previous_crash_actions[i]);
  }
  atexit(restore_at_exit);
}

void cn_set_active(bool value) {
  if (value) {
    restore_length = 0;
    mouse_off_length = 0;
    cursor_length = 0;
    append_capability(restore_sequence, sizeof(restore_sequence), &restore_length, "sgr0");
    append_capability(restore_sequence, sizeof(restore_sequence), &restore_length, "rmkx");
    append_capability(restore_sequence, sizeof(restore_sequence), &restore_length, "rmcup");
    if (!has_capability("rmcup")) {
      append_capability(restore_sequence, sizeof(restore_sequence), &restore_length, "clear");
      append_capability(cursor_sequence, sizeof(cursor_sequence), &cursor_length, "clear");
    }
    append_capability(restore_sequence, sizeof(restore_sequence), &restore_length, "cnorm");
    append_capability(cursor_sequence, sizeof(cursor_sequence), &cursor_length, "cnorm");
  }
  active = value ? 1 : 0;
}

void cn_restore(void) {
  if (!active) return;
  active = 0;
  endwin();
  fflush(stdout);
  write_all(cursor_sequence, cursor_length);
}

// MARK: Waking the run loop on a resize

// curses notes a SIGWINCH in a flag that the next wgetch turns into KEY_RESIZE;
// a loop asleep in the run loop (not in wgetch) would not notice. The handler
// below calls curses' handler, then writes a byte to a pipe the loop watches.
static int resize_pipe[2] = {-1, -1};
static struct sigaction previous_winch_action;

static void on_resize_signal(int signo) {
  int saved_errno = errno;
  if (previous_winch_action.sa_flags & SA_SIGINFO) {
    if (previous_winch_action.sa_sigaction != NULL) previous_winch_action.sa_sigaction(signo, NULL, NULL);
  } else if (previous_winch_action.sa_handler != SIG_DFL && previous_winch_action.sa_handler != SIG_IGN) {
    previous_winch_action.sa_handler(signo);
  }
  if (resize_pipe[1] >= 0) {
    char byte = 1;
    (void)!write(resize_pipe[1], &byte, 1);
  }
  errno = saved_errno;
}

int cn_install_resize_wakeup(void) {
  if (resize_pipe[0] >= 0) return resize_pipe[0];
  if (pipe2(resize_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    resize_pipe[0] = resize_pipe[1] = -1;
    return -1;
  }
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  sigemptyset(&action.sa_mask);
  action.sa_handler = on_resize_signal;
  action.sa_flags = SA_RESTART;
  sigaction(SIGWINCH, &action, &previous_winch_action);
  return resize_pipe[0];
}

void cn_drain_resize_wakeup(void) {
  char buffer[64];
  while (resize_pipe[0] >= 0 && read(resize_pipe[0], buffer, sizeof(buffer)) > 0) {
  }
}
