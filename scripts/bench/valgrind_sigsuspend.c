/* Preloaded into skillhost under valgrind by bench-mcp.sh (BENCH_INSTRUCTIONS=1). valgrind (3.19) writes
 * into the signal mask a program hands rt_sigsuspend, and libdispatch's main-queue drain (where an async
 * main parks its main thread) hands it a read-only one: valgrind then dies of SIGSEGV. The call goes
 * through a writable copy instead; nothing else changes. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)8);
}
