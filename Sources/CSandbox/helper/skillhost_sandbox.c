/*
 * skillhost-sandbox — starts a program in namespaces of its own (issue #34, "Two layers"), cheaply.
 *
 *   skillhost-sandbox -- PROGRAM [ARGUMENT ...]
 *
 * Makes a user namespace (the caller's own uid and gid mapped), a PID namespace with a /proc of its own (its
 * pid_max from the program's `--nproc N` when it has `--sb-procs 1`, at least 301), a mount and an IPC namespace; forks the namespace's
 * init and the child that execs PROGRAM; stays outside as its supervisor (signals forwarded, the namespace
 * killed when the program ends, and the program's exit status or signal passed on as its own). Where the
 * kernel refuses a user namespace it execs PROGRAM directly. Either way PROGRAM finds what was made in
 * SKILLHOST_SANDBOX_STATE ("BITS:REASON"; skillhost's constructor reads and removes it) and enters the second
 * layer (Landlock, seccomp, no capabilities) itself.
 *
 * skillhost starts its workers and its scanner child through this small program instead of making the
 * namespaces inside its own (much larger) process: a child forked from a process that has run a while faults
 * in again every page of the binary its parent had touched, which cost milliseconds per worker; this program
 * has touched almost nothing when it forks, and the program it starts is exec'd fresh, as without namespaces.
 * Nothing here is for people to run by hand; `skillhost inspect` says which layers hold.
 *
 * Built with cc by scripts/build-sandbox-helper.sh (test.sh, install.sh and bench.sh call it) from this file and
 * the CSandbox sources, into the folder of the skillhost binary it serves; without it skillhost makes the
 * namespaces itself (the same layers, a slower start).
 */
#define _GNU_SOURCE
#include "skillhost_sandbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int first = 1;
    if (first < argc && strcmp(argv[first], "--") == 0) first++;
    if (first >= argc || argv[first][0] != '/') {
        fprintf(stderr, "usage: skillhost-sandbox -- /ABSOLUTE/PROGRAM [ARGUMENT ...] (started by skillhost)\n");
        return 2;
    }
    long limit = skh_process_limit_of(argc - first, argv + first);
    /* The program dies with skillhost: this process arms the signal, and the namespace's processes follow it. */
    if (skh_die_with_parent() != 0) return 127;
    skh_namespaces_exec(argv + first, limit);
    perror("skillhost-sandbox: exec");
    return 127;
}
