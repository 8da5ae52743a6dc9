/* The floor for a worker round trip on this machine: one byte to a child process over a pipe and one byte
 * back, with no framing, no JSON and no plugin. scripts/bench-dispatch.sh prints it beside the worker's
 * numbers, because a virtual machine's pipe latency varies several-fold from one boot to the next. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 20000;
    int to_child[2], to_parent[2];
    char byte = 'x';
    if (pipe(to_child) != 0 || pipe(to_parent) != 0) return 1;
    if (fork() == 0) {
        for (int i = 0; i < iterations; i++) {
            if (read(to_child[0], &byte, 1) != 1 || write(to_parent[1], &byte, 1) != 1) return 1;
        }
        return 0;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < iterations; i++) {
        if (write(to_child[1], &byte, 1) != 1 || read(to_parent[0], &byte, 1) != 1) return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double nanoseconds = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("bare pipe ping-pong (C)    mean %.2f µs  (%d round trips; the floor for a worker round trip)\n",
           nanoseconds / iterations / 1000.0, iterations);
    return 0;
}
