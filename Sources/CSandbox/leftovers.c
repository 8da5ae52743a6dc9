/* What a sandboxed process with `processes` leaves behind is killed when it ends. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct victims {
    pid_t pids[256];
    int count;
};

static void note_child(long pid, void *context) {
    struct victims *victims = context;
    if (victims->count < 256) victims->pids[victims->count++] = (pid_t)pid;
}

static void note_task(long tid, void *context) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/children", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char text[2048];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return;
    long value = -1;
    for (ssize_t i = 0; i <= n; i++) {
        char c = i < n ? text[i] : ' ';
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
        } else if (value >= 0) {
            note_child(value, context);
            value = -1;
        }
    }
}

void skh_kill_descendants(int rounds) {
    for (int round = 0; round < rounds; round++) {
        struct victims victims = {.count = 0};
        skh_each_number("/proc/self/task", note_task, &victims);
        if (victims.count == 0) {
            /* Orphans of a killed child reach us when that child has exited; reap what is there. */
            int status;
            pid_t reaped = waitpid(-1, &status, WNOHANG | __WALL);
            if (reaped <= 0) return;
            continue;
        }
        for (int i = 0; i < victims.count; i++) kill(victims.pids[i], SIGKILL);
        for (int i = 0; i < victims.count; i++) {
            int status;
            while (waitpid(victims.pids[i], &status, __WALL) < 0 && errno == EINTR) {}
        }
    }
}

static void on_sigterm(int signal_number) {
    int saved = errno;
    skh_kill_descendants(64);
    errno = saved;
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

void skh_kill_descendants_on_sigterm(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigterm;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
}
