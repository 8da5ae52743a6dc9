/* The kernel half of the worker sandbox. See include/skillhost_sandbox.h and docs/isolation.md. */
#define _GNU_SOURCE
#include "skillhost_sandbox.h"

#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Landlock uapi, spelled out here because the installed linux/landlock.h may predate ABI 4-7. */
#define SKH_LL_CREATE_RULESET_VERSION (1U << 0)
#define SKH_LL_RULE_PATH_BENEATH 1
#define SKH_LL_RULE_NET_PORT 2
#define SKH_FS_EXECUTE (1ULL << 0)
#define SKH_FS_WRITE_FILE (1ULL << 1)
#define SKH_FS_READ_FILE (1ULL << 2)
#define SKH_FS_READ_DIR (1ULL << 3)
#define SKH_FS_REFER (1ULL << 13)     /* ABI 2 */
#define SKH_FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define SKH_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define SKH_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define SKH_NET_CONNECT_TCP (1ULL << 1) /* ABI 4 */
#define SKH_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SKH_SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

struct skh_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};
struct skh_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));
struct skh_net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
};

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif

int skh_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, SKH_LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

/* Calls `each(number, context)` for every decimal entry of a /proc directory; returns the count, -1 on error.
 * Uses getdents64 directly (no malloc), so it is async-signal-safe. */
static int each_number(const char *directory, void (*each)(long, void *), void *context) {
    int fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[4096];
    int count = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (long offset = 0; offset < n;) {
            unsigned short length = *(unsigned short *)(buffer + offset + 16);
            const char *name = buffer + offset + 19;
            if (name[0] >= '0' && name[0] <= '9') {
                long value = 0;
                for (const char *p = name; *p >= '0' && *p <= '9'; p++) value = value * 10 + (*p - '0');
                if (each) each(value, context);
                count++;
            }
            offset += length;
        }
    }
    close(fd);
    return count;
}

struct object_list {
    char *buffer;
    size_t size;
    size_t used;
};

static void append_path(struct object_list *list, const char *path) {
    size_t length = strlen(path);
    if (length == 0 || path[0] != '/' || list->used + length + 1 > list->size) return;
    memcpy(list->buffer + list->used, path, length + 1);
    list->used += length + 1;
}

static int note_object(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    if (info->dlpi_name) append_path(context, info->dlpi_name);
    return 0;
}

size_t skh_loaded_objects(char *buffer, size_t size) {
    struct object_list list = {buffer, size, 0};
    char executable[4096];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length > 0) {
        executable[length] = 0;
        append_path(&list, executable);
    }
    dl_iterate_phdr(note_object, &list);
    return list.used;
}

int skh_thread_count(void) { return each_number("/proc/self/task", NULL, NULL); }

static void fail(char *error, size_t size, const char *what, int code) {
    if (error && size) snprintf(error, size, "%s: %s", what, strerror(code));
}

/* ---- Landlock ---- */

static uint64_t handled_fs(int abi) {
    uint64_t mask = (1ULL << 13) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
    if (abi >= 2) mask |= SKH_FS_REFER;
    if (abi >= 3) mask |= SKH_FS_TRUNCATE;
    if (abi >= 5) mask |= SKH_FS_IOCTL_DEV;
    return mask;
}

static int add_path_rule(int ruleset, const struct skh_path_rule *rule, uint64_t handled) {
    int fd = open(rule->path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0; /* a path that does not exist grants nothing */
    struct stat info;
    if (fstat(fd, &info) != 0) {
        close(fd);
        return 0;
    }
    uint64_t access = SKH_FS_READ_FILE | SKH_FS_READ_DIR;
    if (rule->access == SKH_ACCESS_EXECUTE) access |= SKH_FS_EXECUTE;
    if (rule->access == SKH_ACCESS_READ_WRITE) access = handled & ~SKH_FS_EXECUTE;
    if (!S_ISDIR(info.st_mode)) {
        access &= SKH_FS_EXECUTE | SKH_FS_WRITE_FILE | SKH_FS_READ_FILE | SKH_FS_TRUNCATE | SKH_FS_IOCTL_DEV;
    }
    struct skh_path_beneath_attr attr = {.allowed_access = access & handled, .parent_fd = fd};
    long result = syscall(__NR_landlock_add_rule, ruleset, SKH_LL_RULE_PATH_BENEATH, &attr, 0);
    int code = errno;
    close(fd);
    errno = code;
    return result == 0 ? 0 : -1;
}

static int enter_landlock(const struct skh_sandbox_spec *spec, int abi, char *error, size_t size) {
    struct skh_ruleset_attr attr = {.handled_access_fs = handled_fs(abi)};
    if (abi >= 4 && spec->network != SKH_NETWORK_ANY) attr.handled_access_net = SKH_NET_BIND_TCP | SKH_NET_CONNECT_TCP;
    if (abi >= 6) attr.scoped = SKH_SCOPE_ABSTRACT_UNIX_SOCKET | SKH_SCOPE_SIGNAL;
    size_t attr_size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        fail(error, size, "landlock_create_ruleset", errno);
        return -1;
    }
    for (size_t i = 0; i < spec->rule_count; i++) {
        if (add_path_rule(ruleset, &spec->rules[i], attr.handled_access_fs) != 0) {
            char what[512];
            snprintf(what, sizeof what, "landlock rule for %s", spec->rules[i].path);
            fail(error, size, what, errno);
            close(ruleset);
            return -1;
        }
    }
    if (attr.handled_access_net && spec->network == SKH_NETWORK_PORTS) {
        for (size_t i = 0; i < spec->port_count; i++) {
            struct skh_net_port_attr port = {.allowed_access = SKH_NET_CONNECT_TCP, .port = spec->ports[i]};
            if (syscall(__NR_landlock_add_rule, ruleset, SKH_LL_RULE_NET_PORT, &port, 0) != 0) {
                fail(error, size, "landlock port rule", errno);
                close(ruleset);
                return -1;
            }
        }
    }
    if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) {
        fail(error, size, "landlock_restrict_self", errno);
        close(ruleset);
        return -1;
    }
    close(ruleset);
    return 0;
}

/* ---- seccomp ---- */

#define MAX_FILTER 160
struct program {
    struct sock_filter code[MAX_FILTER];
    unsigned short length;
};

static void emit(struct program *p, struct sock_filter instruction) {
    if (p->length < MAX_FILTER) p->code[p->length++] = instruction;
}

/* if (nr == number) return action; */
static void refuse(struct program *p, int number, uint32_t action) {
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)number, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

#define ERRNO(code) (SECCOMP_RET_ERRNO | ((code) & SECCOMP_RET_DATA))
#define ARG0_LOW (offsetof(struct seccomp_data, args[0]))

static const int always_refused[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_mount, __NR_umount2, __NR_pivot_root,
    __NR_chroot, __NR_bpf, __NR_kexec_load, __NR_kexec_file_load, __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_personality, __NR_userfaultfd, __NR_perf_event_open, __NR_init_module, __NR_finit_module,
    __NR_delete_module, __NR_swapon, __NR_swapoff, __NR_reboot, __NR_setns, __NR_unshare, __NR_acct,
    __NR_iopl, __NR_ioperm, __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_syslog, __NR_quotactl,
    __NR_settimeofday, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex, __NR_kcmp, __NR_pidfd_getfd,
    __NR_lookup_dcookie, __NR_fanotify_init, __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#ifdef __NR_move_mount
    __NR_move_mount, __NR_open_tree, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
};

static int enter_seccomp(const struct skh_sandbox_spec *spec, char *error, size_t size) {
    struct program p = {.length = 0};
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
#if defined(__x86_64__)
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
#elif defined(__aarch64__)
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 1, 0));
#else
#error "seccomp filter: unsupported architecture"
#endif
    emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    /* x32 system calls are another way in: refuse them all. */
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, ERRNO(EPERM)));
#endif
    for (size_t i = 0; i < sizeof always_refused / sizeof always_refused[0]; i++) {
        refuse(&p, always_refused[i], ERRNO(EPERM));
    }
    /* clone3 passes its flags in memory a filter cannot read: glibc falls back to clone on ENOSYS. */
    refuse(&p, __NR_clone3, ERRNO(ENOSYS));
    if (!spec->processes) {
#ifdef __NR_fork
        refuse(&p, __NR_fork, ERRNO(EPERM));
        refuse(&p, __NR_vfork, ERRNO(EPERM));
#endif
        refuse(&p, __NR_execve, ERRNO(EPERM));
        refuse(&p, __NR_execveat, ERRNO(EPERM));
        /* clone: threads (CLONE_THREAD) yes, processes no. */
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW));
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, ERRNO(EPERM)));
    }
    if (spec->network == SKH_NETWORK_NONE) {
        refuse(&p, __NR_socket, ERRNO(EACCES));
    } else if (spec->network == SKH_NETWORK_PORTS) {
        /* IPv4 and IPv6 sockets only (Landlock limits their TCP ports); no netlink, packet or UNIX sockets. */
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 5));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW));
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 2, 0));
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 1, 0));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, ERRNO(EACCES)));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    if (p.length >= MAX_FILTER) {
        fail(error, size, "seccomp filter too long", E2BIG);
        return -1;
    }
    struct sock_fprog program = {.len = p.length, .filter = p.code};
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0) {
        fail(error, size, "seccomp", errno);
        return -1;
    }
    return 0;
}

int skh_sandbox_enter(const struct skh_sandbox_spec *spec, int use_landlock, char *error, size_t error_size) {
    if (error && error_size) error[0] = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fail(error, error_size, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
        return -1;
    }
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        fail(error, error_size, "prctl(PR_SET_PDEATHSIG / PR_SET_CHILD_SUBREAPER)", errno);
        return -1;
    }
    if (getppid() != parent) _exit(0); /* the host died before the death signal was armed */
    if (use_landlock) {
        int abi = skh_landlock_abi();
        if (abi <= 0) {
            fail(error, error_size, "Landlock", EOPNOTSUPP);
            return -1;
        }
        int threads = skh_thread_count();
        if (threads != 1) {
            if (error && error_size) {
                snprintf(error, error_size, "Landlock needs a single-threaded worker, found %d threads", threads);
            }
            return -1;
        }
        if (enter_landlock(spec, abi, error, error_size) != 0) return -1;
    }
    return enter_seccomp(spec, error, error_size);
}

/* ---- leftovers ---- */

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
        each_number("/proc/self/task", note_task, &victims);
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

int skh_die_with_parent(void) {
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    if (getppid() != parent) _exit(0); /* the host died before the death signal was armed */
    return 0;
}
