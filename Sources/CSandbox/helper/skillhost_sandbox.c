/*
 * skillhost-sandbox — starts a program inside SkillHost's sandbox (issue #34, "Two layers"), cheaply.
 *
 *   skillhost-sandbox [--sb-ns 0|1] -- PROGRAM [ARGUMENT ...]
 *   skillhost-sandbox --confine [POLICY ...] -- PROGRAM [ARGUMENT ...]
 *
 * Makes a user namespace (the caller's own uid and gid mapped), a PID namespace with a /proc of its own (its
 * pid_max from `--nproc N` when `--sb-procs 1`, at least 301), a mount and an IPC namespace; forks the
 * namespace's init and the child that execs PROGRAM; stays outside as its supervisor (signals forwarded, the
 * namespace killed when the program ends, and the program's exit status or signal passed on as its own).
 * Where the kernel refuses a user namespace it execs PROGRAM directly. Either way PROGRAM finds what was made
 * in SKILLHOST_SANDBOX_STATE ("BITS:REASON").
 *
 * Without --confine, PROGRAM is skillhost itself (a worker or the scanner), which reads the state in a
 * constructor and enters the second layer (Landlock, seccomp, no capabilities) on its own. With --confine,
 * PROGRAM is anything else — an interpreter running a skill's script, an MCP server — and this program enters
 * the second layer for it right before the exec, from the POLICY words:
 *   --sb-exec PATH       read and execute (programs, libraries)       --sb-read PATH   read
 *   --sb-write PATH      read, write, create, remove beneath           --sb-net none|any|PORT,PORT
 *   --sb-procs 1         it may start processes (they stay inside its sandbox and die with it)
 *   --sb-procs 0         it may not: its own start is the one exec (of a descriptor, see confine()); every fork
 *                        and every other exec is refused. Needs --nofile       --chdir DIR      its working folder
 *   --as-mb N --cpu-s N --nofile N --nproc N --fsize-mb N            resource limits (0 = none)
 *
 * skillhost starts its sandboxed processes through this small program instead of making the namespaces inside
 * its own (much larger) process: a child forked from a process that has run a while faults in again every
 * page of the binary its parent had touched, which cost milliseconds per worker; this program has touched
 * almost nothing when it forks, and the program it starts is exec'd fresh. Nothing here is for people to run
 * by hand; `skillhost inspect` says which layers hold.
 *
 * Built with cc by scripts/build-sandbox-helper.sh (test.sh, install.sh and bench.sh call it) from this file and
 * the CSandbox sources, into the folder of the skillhost binary it serves; without it skillhost makes a
 * worker's namespaces itself (the same layers, a slower start) and refuses to run programs it cannot confine.
 */
#define _GNU_SOURCE
#include "skillhost_sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/syscall.h>

#define MAX_RULES 256
/* linux/close_range.h, which older C libraries lack. */
#define SKH_CLOSE_RANGE_CLOEXEC (1U << 2)
#define MAX_PORTS 64

/* What --confine enters before the exec. */
struct confinement {
    struct skh_path_rule rules[MAX_RULES];
    size_t rule_count;
    uint16_t ports[MAX_PORTS];
    struct skh_sandbox_spec spec;
    const char *directory;
    long limits[5]; /* address space MiB, CPU s, open files, processes, file size MiB; 0 = none */
    const char *program; /* the program's path */
};

static int usage(const char *why) {
    fprintf(stderr, "skillhost-sandbox: %s; usage: skillhost-sandbox [--confine POLICY ...] -- /ABSOLUTE/PROGRAM [ARGUMENT ...] (started by skillhost)\n", why);
    return 2;
}

static int set_limit(int resource, long value, const char *name, int soft_only) {
    if (value <= 0) return 0;
    struct rlimit current;
    getrlimit(resource, &current);
    rlim_t wanted = (rlim_t)value;
    if (current.rlim_max != RLIM_INFINITY && wanted > current.rlim_max) wanted = current.rlim_max;
    struct rlimit limit = {wanted, soft_only ? current.rlim_max : wanted};
    if (setrlimit(resource, &limit) == 0) return 0;
    fprintf(stderr, "skillhost-sandbox: cannot limit %s to %ld: %s\n", name, value, strerror(errno));
    return -1;
}

/* The second layer, in the process about to exec the program (see skh_namespaces_exec). */
static int confine(void *context, int namespaces) {
    struct confinement *c = context;
    if (c->directory && chdir(c->directory) != 0) {
        fprintf(stderr, "skillhost-sandbox: cannot enter the working folder %s: %s\n", c->directory, strerror(errno));
        return -1;
    }
    /* Without processes the program's own start is the one exec allowed: of a descriptor numbered at the
     * open-files limit (seccomp allows execveat of that number only), opened before the limit is lowered, so
     * the program can never make a descriptor with that number again. Not close-on-exec: the kernel cannot
     * start a script (a `#!` program) from a descriptor that closes at its exec. */
    if (!c->spec.processes) {
        int fd = (int)c->limits[2];
        int opened = open(c->program, O_PATH | O_CLOEXEC);
        if (opened < 0 || dup2(opened, fd) != fd) {
            fprintf(stderr, "skillhost-sandbox: cannot open %s to start it: %s\n", c->program, strerror(errno));
            return -1;
        }
        close(opened);
        c->spec.exec_descriptor = fd;
        skh_exec_descriptor = fd;
    }
    if (set_limit(RLIMIT_AS, c->limits[0] << 20, "address space", 0) != 0 ||
        set_limit(RLIMIT_CPU, c->limits[1], "CPU time", 0) != 0 ||
        set_limit(RLIMIT_NOFILE, c->limits[2], "open files", 0) != 0 ||
        set_limit(RLIMIT_FSIZE, c->limits[4] << 20, "file size", 0) != 0) {
        return -1;
    }
    /* RLIMIT_NPROC counts every process of the user outside a user namespace: only inside one. */
    if (c->spec.processes && c->limits[3] > 0 && (namespaces & SKH_NS_USER) &&
        set_limit(RLIMIT_NPROC, c->limits[3], "processes", 0) != 0) {
        return -1;
    }
    /* Only stdin, stdout and stderr reach the program: whatever else its starter left open (a socket to a
     * model server, a database) closes at the exec. CLOSE_RANGE_CLOEXEC, not a close: the exec's own
     * report pipe must stay open until the exec. */
    unsigned keep = c->spec.exec_descriptor > 2 ? (unsigned)c->spec.exec_descriptor : ~0U;
    if (syscall(SYS_close_range, 3, keep - 1, SKH_CLOSE_RANGE_CLOEXEC) != 0 ||
        (keep != ~0U && syscall(SYS_close_range, keep + 1, ~0U, SKH_CLOSE_RANGE_CLOEXEC) != 0)) {
        for (int fd = 3; fd < 65536; fd++) if ((unsigned)fd != keep) fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    char error[512];
    if (skh_sandbox_enter(&c->spec, skh_landlock_abi() > 0, error, sizeof error) != 0) {
        fprintf(stderr, "skillhost-sandbox: cannot enter the sandbox (%s); nothing was run\n", error);
        return -1;
    }
    return 0;
}

/* Reads the POLICY words before "--"; returns the index of PROGRAM, or -1 (said why). */
static int read_policy(int argc, char **argv, int *namespaces, int *confined, struct confinement *c) {
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *word = argv[i];
        if (strcmp(word, "--confine") == 0) {
            *confined = 1;
            continue;
        }
        if (i + 1 >= argc) return usage("an option needs a value"), -1;
        const char *value = argv[++i];
        int access = -1;
        if (strcmp(word, "--sb-exec") == 0) access = SKH_ACCESS_EXECUTE;
        if (strcmp(word, "--sb-read") == 0) access = SKH_ACCESS_READ;
        if (strcmp(word, "--sb-write") == 0) access = SKH_ACCESS_READ_WRITE;
        if (access >= 0) {
            if (c->rule_count == MAX_RULES) return usage("too many paths"), -1;
            c->rules[c->rule_count].path = value;
            c->rules[c->rule_count].access = access;
            c->rule_count++;
        } else if (strcmp(word, "--sb-ns") == 0) {
            *namespaces = strcmp(value, "1") == 0;
        } else if (strcmp(word, "--sb-procs") == 0) {
            c->spec.processes = strcmp(value, "1") == 0;
        } else if (strcmp(word, "--sb-net") == 0) {
            if (strcmp(value, "none") == 0) {
                c->spec.network = SKH_NETWORK_NONE;
            } else if (strcmp(value, "any") == 0) {
                c->spec.network = SKH_NETWORK_ANY;
            } else {
                c->spec.network = SKH_NETWORK_PORTS;
                for (const char *p = value; *p && c->spec.port_count < MAX_PORTS;) {
                    char *end;
                    long port = strtol(p, &end, 10);
                    if (end == p || port < 1 || port > 65535) return usage("--sb-net takes none, any or ports"), -1;
                    c->ports[c->spec.port_count++] = (uint16_t)port;
                    p = *end == ',' ? end + 1 : end;
                }
            }
        } else if (strcmp(word, "--chdir") == 0) {
            c->directory = value;
        } else {
            static const char *names[] = {"--as-mb", "--cpu-s", "--nofile", "--nproc", "--fsize-mb"};
            int known = 0;
            for (int k = 0; k < 5; k++) {
                if (strcmp(word, names[k]) == 0) {
                    c->limits[k] = strtol(value, NULL, 10);
                    known = 1;
                }
            }
            if (!known) {
                char why[300];
                snprintf(why, sizeof why, "unknown option %s", word);
                return usage(why), -1;
            }
        }
    }
    if (i >= argc) return usage("no -- before the program"), -1;
    return i + 1;
}

int main(int argc, char **argv) {
    static struct confinement c;
    c.spec.network = SKH_NETWORK_NONE;
    int namespaces = 1, confined = 0;
    int first = read_policy(argc, argv, &namespaces, &confined, &c);
    if (first < 0) return 2;
    if (first >= argc || argv[first][0] != '/') return usage("the program must be an absolute path");
    if (confined && !c.spec.processes && c.limits[2] <= 2) {
        return usage("--confine --sb-procs 0 needs --nofile N: the program's one exec is of a descriptor numbered N");
    }
    c.program = argv[first];
    c.spec.rules = c.rules;
    c.spec.rule_count = c.rule_count;
    c.spec.ports = c.ports;
    long limit = confined ? (c.spec.processes ? c.limits[3] : 0) : skh_process_limit_of(argc - first, argv + first);
    /* The program dies with skillhost: this process arms the signal, and the namespace's processes follow it. */
    if (skh_die_with_parent() != 0) return 127;
    skh_namespaces_exec(argv + first, limit, namespaces, confined ? confine : NULL, &c);
    fprintf(stderr, "skillhost-sandbox: cannot run %s: %s\n", argv[first], strerror(errno));
    return 127;
}
