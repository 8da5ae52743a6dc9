/* The first layer: user, PID, mount, IPC (and network) namespaces, as bubblewrap makes them, with a
 * supervisor outside and an init inside. See skh_namespaces_enter in include/skillhost_sandbox.h. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = strlen(text);
    ssize_t written = write(fd, text, length);
    int code = errno;
    close(fd);
    errno = code;
    return written == (ssize_t)length ? 0 : -1;
}

/* Maps the caller's own user and group into the new user namespace (the only mapping an unprivileged
 * process may write), after refusing setgroups as the kernel requires. */
static int map_identity(uid_t uid, gid_t gid, char *error, size_t size) {
    char line[64];
    if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) {
        skh_fail(error, size, "write /proc/self/setgroups", errno);
        return -1;
    }
    snprintf(line, sizeof line, "%u %u 1", (unsigned)uid, (unsigned)uid);
    if (write_file("/proc/self/uid_map", line) != 0) {
        skh_fail(error, size, "write /proc/self/uid_map", errno);
        return -1;
    }
    snprintf(line, sizeof line, "%u %u 1", (unsigned)gid, (unsigned)gid);
    if (write_file("/proc/self/gid_map", line) != 0) {
        skh_fail(error, size, "write /proc/self/gid_map", errno);
        return -1;
    }
    return 0;
}

/* A child of the supervisor: dies with it, and leaves at once when it is already gone (the death signal is
 * not inherited through fork, and in a PID namespace getppid() is 0, so a pipe tells instead). */
static void follow_supervisor(int alive) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    struct pollfd check = {.fd = alive, .events = POLLIN};
    if (poll(&check, 1, 0) > 0 && (check.revents & (POLLHUP | POLLERR))) _exit(0);
    close(alive);
}

/* Points 0, 1 and 2 at /dev/null and closes every other descriptor but `keep`. */
static void keep_only(int keep) {
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd < 3; fd++) {
        if (null >= 0 && null != fd) dup2(null, fd);
    }
    if (null > 2) close(null);
    if (keep >= 0 && keep != 3) {
        dup2(keep, 3);
        keep = 3;
    }
    syscall(SYS_close_range, keep >= 0 ? 4 : 3, ~0U, 0);
}

static void wake(int signal_number) { (void)signal_number; }

/* The namespace's init: reaps orphans until the supervisor kills it (which kills everything inside), or until
 * the supervisor's end of `alive` closes. The death signal alone is not enough: a supervisor that dies before
 * the init sets it never sends it, and the pipe check of follow_supervisor can miss that death while the
 * sandboxed child, forked meanwhile, still holds its copy of the write end (it closes it first thing) — the
 * init would then reap forever, orphaned. So the init keeps `alive` and waits on it, with SIGCHLD let in only
 * during the wait (it needs a handler: with its default action, ignore, it would not end the wait). */
static void run_init(int alive) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    keep_only(alive);
    alive = 3;
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    sigprocmask(SIG_BLOCK, &all, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = wake;
    sigaction(SIGCHLD, &action, NULL);
    for (;;) {
        while (waitpid(-1, NULL, WNOHANG | __WALL) > 0) {}
        struct pollfd check = {.fd = alive, .events = POLLIN};
        if (ppoll(&check, 1, NULL, &none) > 0 && check.revents) _exit(0);
    }
}

static volatile pid_t supervised;
static volatile pid_t supervised_init;
static volatile sig_atomic_t stopping;

/* SIGTERM (the host stopping its worker) kills the init and the sandboxed process at once, so they end side by
 * side rather than one after the other (the process, then this one noticing, then the init and the rest of
 * the namespace); supervise reaps both and ends by SIGTERM. Other signals are passed on. */
static void forward(int signal_number) {
    int saved = errno;
    if (signal_number == SIGTERM) {
        stopping = 1;
        if (supervised_init > 0) kill(supervised_init, SIGKILL);
        if (supervised > 0) kill(supervised, SIGKILL);
    } else if (supervised > 0) {
        kill(supervised, signal_number);
    }
    errno = saved;
}

/* The supervisor: forwards the signals that stop a process (SIGTERM ends everything at once, see forward),
 * waits, kills the namespace, then ends as the sandboxed process ended (by SIGTERM when it was stopped). */
__attribute__((noreturn)) static void supervise(pid_t init, pid_t child, int alive) {
    supervised = child;
    supervised_init = init;
    keep_only(alive);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward;
    sigemptyset(&action.sa_mask);
    for (int s = 1; s < NSIG; s++) {
        if (s == SIGTERM || s == SIGINT || s == SIGHUP || s == SIGQUIT || s == SIGUSR1 || s == SIGUSR2) {
            sigaction(s, &action, NULL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            status = 127 << 8;
            break;
        }
    }
    kill(init, SIGKILL);
    while (waitpid(init, NULL, 0) < 0 && errno == EINTR) {}
    if (stopping) status = SIGTERM; /* as a wait status: killed by SIGTERM */
    if (WIFSIGNALED(status)) {
        int signal_number = WTERMSIG(status);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        signal(signal_number, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, signal_number);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        kill(getpid(), signal_number);
        _exit(128 + signal_number);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* The namespaces, the identity mapping, the pipe that tells children whether the supervisor lives, and the
 * init: what both ways in share. Returns the init's pid; 0 when the kernel refused the namespaces (nothing
 * changed); -1 when it failed half way. */
static pid_t make_namespaces(int network, int alive[2], char *error, size_t error_size) {
    if (error && error_size) error[0] = 0;
    uid_t uid = getuid();
    gid_t gid = getgid();
    int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | (network ? CLONE_NEWNET : 0);
    if (unshare(flags) != 0) {
        skh_fail(error, error_size, "unshare(user, pid, mount, ipc namespaces)", errno);
        return 0;
    }
    if (map_identity(uid, gid, error, error_size) != 0) return -1;
    if (pipe2(alive, O_CLOEXEC) != 0) {
        skh_fail(error, error_size, "pipe", errno);
        return -1;
    }
    pid_t init = fork();
    if (init < 0) {
        skh_fail(error, error_size, "fork (the namespace's init)", errno);
        return -1;
    }
    if (init == 0) {
        close(alive[1]);
        run_init(alive[0]);
    }
    return init;
}

static int namespace_bits(int network) {
    return SKH_NS_USER | SKH_NS_PID | SKH_NS_MOUNT | SKH_NS_IPC | (network ? SKH_NS_NET : 0);
}

int skh_namespaces_enter(int network, long process_limit, char *error, size_t error_size) {
    int alive[2];
    pid_t init = make_namespaces(network, alive, error, error_size);
    if (init <= 0) return (int)init;
    pid_t child = fork();
    if (child < 0) {
        kill(init, SIGKILL);
        skh_fail(error, error_size, "fork (the sandboxed process)", errno);
        return -1;
    }
    if (child == 0) {
        close(alive[1]);
        follow_supervisor(alive[0]);
        int bits = namespace_bits(network);
        /* Now, while this process holds every capability of its user namespace (an exec by a user other than
         * root would drop them). */
        if (skh_mount_namespace_proc(process_limit)) bits |= SKH_NS_PROC;
        return bits;
    }
    close(alive[0]);
    supervise(init, child, alive[1]);
}

/* `text` followed by the decimal `value`, then ":" and `reason`, into `out` (no stdio: runs in a vfork child). */
static void format_state(char *out, size_t size, int value, const char *reason) {
    char digits[16];
    int count = 0;
    unsigned magnitude = value < 0 ? (unsigned)-value : (unsigned)value;
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude && count < 15);
    size_t at = 0;
    for (const char *p = SKH_NAMESPACES_STATE_VARIABLE "="; *p && at + 1 < size; p++) out[at++] = *p;
    if (value < 0 && at + 1 < size) out[at++] = '-';
    while (count > 0 && at + 1 < size) out[at++] = digits[--count];
    if (at + 1 < size) out[at++] = ':';
    for (const char *p = reason; p && *p && at + 1 < size; p++) out[at++] = *p;
    out[at] = 0;
}

int skh_exec_descriptor = 0;

/* The program's exec: of its path, or of the descriptor a confined program without processes is allowed. */
static void exec_program(char *const argv[], char *const envp[]) {
    if (skh_exec_descriptor > 0) {
        syscall(SYS_execveat, skh_exec_descriptor, "", argv, envp, AT_EMPTY_PATH);
    } else {
        execve(argv[0], argv, envp);
    }
}

int skh_namespaces_exec(char *const argv[], long process_limit, int namespaces, int (*prepare)(void *, int), void *context) {
    extern char **environ;
    /* The program's environment: this one plus SKILLHOST_SANDBOX_STATE, whose text the child fills in. */
    size_t count = 0;
    while (environ[count]) count++;
    static char **envp;
    envp = calloc(count + 2, sizeof *envp);
    static char state[320];
    if (!envp) return -1;
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(environ[i], SKH_NAMESPACES_STATE_VARIABLE "=", sizeof SKH_NAMESPACES_STATE_VARIABLE) != 0) envp[kept++] = environ[i];
    }
    envp[kept++] = state;
    envp[kept] = NULL;
    char reason[256] = {0};
    int alive[2];
    pid_t init = namespaces ? make_namespaces(0, alive, reason, sizeof reason) : 0;
    if (!namespaces) snprintf(reason, sizeof reason, "not asked for");
    if (init <= 0) {
        /* Refused (or failed half way, or not asked for): the program runs here, and learns why from the state. */
        format_state(state, sizeof state, (int)init, reason);
        if (prepare && prepare(context, 0) != 0) _exit(126);
        exec_program(argv, envp);
        return -1;
    }
    /* The child only sets itself up and execs: a vfork shares this process's memory meanwhile (this process
     * waits), which spares copying its page tables. */
    pid_t child = vfork();
    if (child < 0) {
        kill(init, SIGKILL);
        return -1;
    }
    if (child == 0) {
        close(alive[1]);
        follow_supervisor(alive[0]);
        int bits = namespace_bits(0);
        if (skh_mount_namespace_proc(process_limit)) bits |= SKH_NS_PROC;
        format_state(state, sizeof state, bits, "");
        if (prepare && prepare(context, bits) != 0) _exit(126);
        exec_program(argv, envp);
        _exit(127);
    }
    close(alive[0]);
    supervise(init, child, alive[1]);
}

/* ---- entering early ----
 * A process that forks after it has run a while pays for it: its child faults in again every page of the
 * binary and the runtime the parent had touched (fork copies no page tables for file mappings). So the
 * namespaces are entered as early as possible: by a constructor, before the Swift runtime's main, for a
 * worker or scanner whose command line asks for them (`--sb-ns 1`), and by a forked spare right after its
 * fork. The sandboxed child records what it got; skh_early_namespaces() reports it. */

static int early_tried;
static int early_bits;
static char early_error[256];

int skh_namespaces_enter_early(int network, long process_limit) {
    early_tried = 1;
    early_bits = skh_namespaces_enter(network, process_limit, early_error, sizeof early_error);
    return early_bits;
}

long skh_process_limit_of(int argc, char **argv) {
    long limit = 0;
    int processes = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--nproc") == 0) limit = strtol(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--sb-procs") == 0) processes = strcmp(argv[i + 1], "1") == 0;
    }
    return processes ? limit : 0;
}

void skh_record_namespaces_from_helper(const char *state) {
    early_tried = 1;
    early_bits = (int)strtol(state, NULL, 10);
    const char *colon = strchr(state, ':');
    snprintf(early_error, sizeof early_error, "%s", colon ? colon + 1 : "");
}

int skh_early_namespaces(char *error, size_t error_size) {
    if (!early_tried) return -2;
    if (error && error_size) snprintf(error, error_size, "%s", early_error);
    return early_bits;
}

__attribute__((constructor(101))) static void skh_enter_namespaces_at_start(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 3 || (strcmp(argv[1], "__worker") != 0 && strcmp(argv[1], "__scan") != 0)) return;
    /* Started by skillhost-sandbox, which made the namespaces before the exec: note what it got. */
    const char *state = getenv(SKH_NAMESPACES_STATE_VARIABLE);
    if (state) {
        skh_record_namespaces_from_helper(state);
        unsetenv(SKH_NAMESPACES_STATE_VARIABLE);
        return;
    }
    int wanted = 0;
    for (int i = 2; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--sb-ns") == 0) wanted = strcmp(argv[i + 1], "1") == 0;
    }
    if (!wanted) return;
    if (skh_die_with_parent() != 0) return;
    skh_namespaces_enter_early(0, skh_process_limit_of(argc, argv));
}

int skh_mount_namespace_proc(long process_limit) {
    /* No need to make the tree private first: a mount namespace owned by a new user namespace receives the
     * parent's shared mounts as slaves, so nothing mounted here propagates out. */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) return 0;
    if (process_limit > 0) {
        /* pid_max is per PID namespace since Linux 6.14 (at least 301); older kernels refuse: RLIMIT_NPROC
         * still holds for users other than root. */
        char text[32];
        snprintf(text, sizeof text, "%ld", process_limit < 301 ? 301 : process_limit);
        write_file("/proc/sys/kernel/pid_max", text);
    }
    return 1;
}

int skh_namespaces_probe(char *error, size_t error_size) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        skh_fail(error, error_size, "pipe", errno);
        return 0;
    }
    pid_t probe = fork();
    if (probe < 0) {
        skh_fail(error, error_size, "fork", errno);
        close(report[0]), close(report[1]);
        return 0;
    }
    if (probe == 0) {
        close(report[0]);
        char reason[200] = {0};
        uid_t uid = getuid();
        gid_t gid = getgid();
        int bits = 0;
        if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC) != 0) {
            skh_fail(reason, sizeof reason, "unshare", errno);
        } else if (map_identity(uid, gid, reason, sizeof reason) == 0) {
            bits = SKH_NS_USER | SKH_NS_PID | SKH_NS_MOUNT | SKH_NS_IPC;
            pid_t inside = fork();
            if (inside == 0) _exit(skh_mount_namespace_proc(0) ? 0 : 1);
            int status = 1;
            if (inside > 0) waitpid(inside, &status, 0);
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) bits |= SKH_NS_PROC;
        }
        char message[256];
        int length = snprintf(message, sizeof message, "%d %s", bits, reason);
        if (write(report[1], message, (size_t)length) < 0) _exit(1);
        _exit(0);
    }
    close(report[1]);
    char message[256] = {0};
    ssize_t got = 0, n;
    while ((n = read(report[0], message + got, sizeof message - 1 - (size_t)got)) > 0) got += n;
    close(report[0]);
    while (waitpid(probe, NULL, 0) < 0 && errno == EINTR) {}
    int bits = 0;
    char *space = strchr(message, ' ');
    for (char *c = message; c < (space ? space : message + got); c++) bits = bits * 10 + (*c - '0');
    if (error && error_size) snprintf(error, error_size, "%s", space ? space + 1 : "no answer from the probe");
    return bits;
}
