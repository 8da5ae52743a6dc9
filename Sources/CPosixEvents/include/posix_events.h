// epoll, eventfd and accept4 for Swift: Glibc's Swift module does not export <sys/epoll.h>, <sys/eventfd.h> or
// accept4 (a GNU extension), and
// `struct epoll_event` is packed on x86-64 (Swift cannot read its fields). These functions take and give
// plain values; SkillPosix's `Posix.EventPoll` and `Posix.EventCounter` wrap them.
#ifndef SKILLHOST_POSIX_EVENTS_H
#define SKILLHOST_POSIX_EVENTS_H

#include <stdint.h>

/// One readiness report: the descriptor's token (given when it was added) and what it is ready for.
typedef struct {
    uint64_t token;
    uint32_t events;
} skillhost_event;

/// Event bits (the kernel's EPOLL* values; EPOLLET, 1 << 31, is spelled in Swift).
enum {
    SKILLHOST_EVENT_IN = 0x001,
    SKILLHOST_EVENT_OUT = 0x004,
    SKILLHOST_EVENT_ERR = 0x008,
    SKILLHOST_EVENT_HUP = 0x010,
    SKILLHOST_EVENT_RDHUP = 0x2000,
};

/// epoll_create1(EPOLL_CLOEXEC).
int skillhost_epoll_create(void);
/// epoll_ctl ADD (op 1), DEL (2) or MOD (3) of `descriptor` with `events` and `token`.
int skillhost_epoll_control(int epoll, int op, int descriptor, uint32_t events, uint64_t token);
/// epoll_wait into `out` (at most `capacity`, at most 256); `milliseconds` -1 waits without end.
int skillhost_epoll_wait(int epoll, skillhost_event *out, int capacity, int milliseconds);
/// accept4(…, SOCK_CLOEXEC | SOCK_NONBLOCK): a connection no child process inherits.
int skillhost_accept_nonblocking(int listener, void *address, unsigned int *length);
/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK).
int skillhost_eventfd_create(void);

#endif
