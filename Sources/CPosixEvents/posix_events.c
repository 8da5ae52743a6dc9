#define _GNU_SOURCE
#include "posix_events.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/eventfd.h>

int skillhost_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int skillhost_epoll_control(int epoll, int op, int descriptor, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epoll, op, descriptor, &event);
}

int skillhost_epoll_wait(int epoll, skillhost_event *out, int capacity, int milliseconds) {
    struct epoll_event raw[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, raw, capacity, milliseconds);
    for (int index = 0; index < count; index++) {
        out[index].token = raw[index].data.u64;
        out[index].events = raw[index].events;
    }
    return count;
}

int skillhost_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int skillhost_accept_nonblocking(int listener, void *address, unsigned int *length) {
    return accept4(listener, (struct sockaddr *)address, (socklen_t *)length, SOCK_CLOEXEC | SOCK_NONBLOCK);
}
