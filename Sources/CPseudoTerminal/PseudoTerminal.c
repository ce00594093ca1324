/* Pseudo-terminals for `reel record` (see include/PseudoTerminal.h). posix_spawn rather than fork: the
   recording process has threads, and a forked child of a threaded process may only call
   async-signal-safe functions, which glibc's posix_spawn takes care of. */
#define _GNU_SOURCE
#include "PseudoTerminal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int reel_pty_open(unsigned short columns, unsigned short rows, char *path, size_t length) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct winsize size = {.ws_row = rows, .ws_col = columns};
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, path, length) != 0 || ioctl(fd, TIOCSWINSZ, &size) != 0
        || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int reel_pty_spawn(const char *path, char *const argv[], char *const envp[], pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) return error;
    error = posix_spawnattr_init(&attributes);
    if (error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    /* The session is made before the file actions run, so opening the terminal makes it the session's
       controlling terminal (what a shell's job control and ctrl+c need). */
    if ((error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)) == 0
        && (error = posix_spawnattr_setsigdefault(&attributes, &all)) == 0
        && (error = posix_spawnattr_setsigmask(&attributes, &none)) == 0
        && (error = posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)) == 0
        && (error = posix_spawn_file_actions_adddup2(&actions, 0, 1)) == 0
        && (error = posix_spawn_file_actions_adddup2(&actions, 0, 2)) == 0) {
        error = posix_spawn(pid, argv[0], &actions, &attributes, argv, envp);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}
