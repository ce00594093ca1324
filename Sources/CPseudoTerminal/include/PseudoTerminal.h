/* Pseudo-terminals for `reel record`: what Swift cannot import from the C library (posix_openpt and the
   ioctl request macros are hidden behind feature macros; POSIX_SPAWN_SETSID is a macro). */
#ifndef REEL_PSEUDO_TERMINAL_H
#define REEL_PSEUDO_TERMINAL_H

#include <stddef.h>
#include <sys/types.h>

/* Opens a pseudo-terminal of `columns` x `rows` cells: returns the controlling side's descriptor
   (close-on-exec, non-blocking) and writes the other side's path into `path`; -1 with errno set. */
int reel_pty_open(unsigned short columns, unsigned short rows, char *path, size_t length);

/* Starts `argv` in a new session whose controlling terminal is the pseudo-terminal at `path` (its
   standard input, output and error), with `envp`, every signal at its default and none blocked.
   Returns 0 and the child's pid, or an errno value. */
int reel_pty_spawn(const char *path, char *const argv[], char *const envp[], pid_t *pid);

#endif
