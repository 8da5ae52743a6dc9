/* Times whole processes for scripts/bench.sh: runs a command RUNS times (after one untimed warm-up run
 * unless --no-warmup), optionally running a shell command before each run (not timed), and prints
 *   median_ms min_ms max_ms peak_rss_kib median_cpu_ms
 * where peak_rss_kib is the largest maximum resident set size of the command (wait4's ru_maxrss) and
 * median_cpu_ms the median user + system CPU time of the command and the children it waited for — on a
 * shared, overloaded machine CPU time is the steadier figure; wall time is what a user waits.
 * The command's stdout goes to /dev/null; a failing run makes the whole measurement fail.
 *
 * usage: proc_time RUNS [--no-warmup] [--before SHELL_COMMAND] -- COMMAND [ARGUMENT...] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run_shell(const char *command) {
    if (!command) return 0;
    int status = system(command);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Runs argv once; returns wall milliseconds or -1, the child's peak RSS in *rss and CPU ms in *cpu. */
static double run_once(char **argv, long *rss, double *cpu) {
    double start = now_ms();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return -1;
    double elapsed = now_ms() - start;
    *rss = usage.ru_maxrss;
    *cpu = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
         + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "proc_time: %s failed (status %d)\n", argv[0], status);
        return -1;
    }
    return elapsed;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: proc_time RUNS [--no-warmup] [--before SHELL_COMMAND] -- COMMAND [ARGUMENT...]\n");
        return 2;
    }
    int runs = atoi(argv[1]);
    const char *before = NULL;
    int warmup = 1, index = 2;
    for (; index < argc && strcmp(argv[index], "--") != 0; index++) {
        if (strcmp(argv[index], "--no-warmup") == 0) warmup = 0;
        else if (strcmp(argv[index], "--before") == 0 && index + 1 < argc) before = argv[++index];
    }
    if (runs < 1 || index + 1 >= argc) return 2;
    char **command = argv + index + 1;
    long rss = 0, peak = 0;
    double cpu = 0;
    if (warmup && (run_shell(before) != 0 || run_once(command, &rss, &cpu) < 0)) return 1;
    double *times = calloc((size_t)runs, sizeof *times);
    double *cpus = calloc((size_t)runs, sizeof *cpus);
    for (int i = 0; i < runs; i++) {
        if (run_shell(before) != 0) { fprintf(stderr, "proc_time: --before command failed\n"); return 1; }
        times[i] = run_once(command, &rss, &cpus[i]);
        if (times[i] < 0) return 1;
        if (rss > peak) peak = rss;
    }
    qsort(times, (size_t)runs, sizeof *times, compare);
    qsort(cpus, (size_t)runs, sizeof *cpus, compare);
    double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
    double cpu_median = runs % 2 ? cpus[runs / 2] : (cpus[runs / 2 - 1] + cpus[runs / 2]) / 2;
    printf("%.3f %.3f %.3f %ld %.3f\n", median, times[0], times[runs - 1], peak, cpu_median);
    return 0;
}
