/* The floors for a shared-memory worker round trip on this machine: two processes pass a turn back and
 * forth through one word of shared memory, waiting with futex(2). With SPIN > 0 each side first polls the
 * word up to SPIN times (a `pause` between polls) before it sleeps, which avoids the kernel's wake-up when
 * the peer answers fast. Prints one line per spin setting: "futex SPIN median_us min_us max_us" over 20
 * batches.
 *
 * usage: futex_pingpong [ROUND_TRIPS] [SPIN...]      (default 20000 round trips; spins 0 and 2000) */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pause_cpu(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* Waits until *word == want, then returns. */
static void wait_for(_Atomic unsigned *word, unsigned want, int spin) {
    for (int i = 0; i < spin; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) == want) return;
        pause_cpu();
    }
    unsigned seen;
    while ((seen = atomic_load_explicit(word, memory_order_acquire)) != want)
        syscall(SYS_futex, word, FUTEX_WAIT, seen, NULL, NULL, 0);
}

static void hand_over(_Atomic unsigned *word, unsigned value) {
    atomic_store_explicit(word, value, memory_order_release);
    syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(int round_trips, int spin) {
    _Atomic unsigned *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    atomic_store(word, 0);
    int batches = 20, per_batch = round_trips / batches;
    int total = per_batch * batches;
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < total; i++) {
            wait_for(word, 1, spin);
            hand_over(word, 2);
        }
        _exit(0);
    }
    double results[20];
    for (int b = 0; b < batches; b++) {
        double start = now_us();
        for (int i = 0; i < per_batch; i++) {
            hand_over(word, 1);
            wait_for(word, 2, spin);
            atomic_store_explicit(word, 0, memory_order_relaxed);
        }
        results[b] = (now_us() - start) / per_batch;
    }
    waitpid(child, NULL, 0);
    qsort(results, (size_t)batches, sizeof *results, compare);
    printf("futex %d %.3f %.3f %.3f\n", spin, (results[9] + results[10]) / 2, results[0], results[batches - 1]);
    munmap((void *)word, 4096);
}

int main(int argc, char **argv) {
    int round_trips = argc > 1 ? atoi(argv[1]) : 20000;
    if (round_trips < 20) round_trips = 20;
    if (argc <= 2) {
        measure(round_trips, 0);
        measure(round_trips, 2000);
    }
    for (int i = 2; i < argc; i++) measure(round_trips, atoi(argv[i]));
    return 0;
}
