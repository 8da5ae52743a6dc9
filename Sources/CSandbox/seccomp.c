/* seccomp: the system calls no skill needs refused, the ones that act on another process allowed only on the
 * caller itself, terminal input injection refused, and processes and sockets as the policy says. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise 440
#endif
#ifndef __NR_process_mrelease
#define __NR_process_mrelease 448
#endif
#ifndef __NR_sched_setattr
#define __NR_sched_setattr 314
#endif

#define SKH_TIOCSTI 0x5412   /* push a byte into a terminal's input queue */
#define SKH_TIOCLINUX 0x541C /* the virtual console's selection, keyboard and console tricks */
#define SKH_PRIO_PROCESS 0
#define SKH_IOPRIO_WHO_PROCESS 1

#define MAX_FILTER 256
struct program {
    struct sock_filter code[MAX_FILTER];
    unsigned short length;
};

static void emit(struct program *p, struct sock_filter instruction) {
    if (p->length < MAX_FILTER) p->code[p->length++] = instruction;
}

#define JUMP_IF(value, yes, no) ((struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(value), yes, no))
#define RETURN(action) ((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action))
#define LOAD_ARG(n) ((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n])))
#define ERRNO(code) (SECCOMP_RET_ERRNO | ((code) & SECCOMP_RET_DATA))
#define ALLOW SECCOMP_RET_ALLOW

/* if (nr == number) return action; */
static void refuse(struct program *p, int number, uint32_t action) {
    emit(p, JUMP_IF(number, 0, 1));
    emit(p, RETURN(action));
}

/* if (nr == number) return args[arg] is 0 or `self` ? allow : EPERM;
 * For calls that name a process (pid_t arguments are 32 bits: the kernel ignores the upper half). */
static void only_on_self(struct program *p, int number, int arg, pid_t self) {
    emit(p, JUMP_IF(number, 0, 5));
    emit(p, LOAD_ARG(arg));
    emit(p, JUMP_IF(0, 2, 0));
    emit(p, JUMP_IF(self, 1, 0));
    emit(p, RETURN(ERRNO(EPERM)));
    emit(p, RETURN(ALLOW));
}

/* if (nr == number) return args[0] == which && args[1] is 0 or `self` ? allow : EPERM;
 * setpriority and ioprio_set: one process (never a process group or every process of a user), this one. */
static void only_on_self_process(struct program *p, int number, uint32_t which, pid_t self) {
    emit(p, JUMP_IF(number, 0, 7));
    emit(p, LOAD_ARG(0));
    emit(p, JUMP_IF(which, 0, 3));
    emit(p, LOAD_ARG(1));
    emit(p, JUMP_IF(0, 2, 0));
    emit(p, JUMP_IF(self, 1, 0));
    emit(p, RETURN(ERRNO(EPERM)));
    emit(p, RETURN(ALLOW));
}

static const int always_refused[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_mount, __NR_umount2, __NR_pivot_root,
    __NR_chroot, __NR_bpf, __NR_kexec_load, __NR_kexec_file_load, __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_personality, __NR_userfaultfd, __NR_perf_event_open, __NR_init_module, __NR_finit_module,
    __NR_delete_module, __NR_swapon, __NR_swapoff, __NR_reboot, __NR_setns, __NR_unshare, __NR_acct,
#ifdef __NR_iopl
    __NR_iopl, __NR_ioperm,
#endif
    __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_syslog, __NR_quotactl,
    __NR_settimeofday, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex, __NR_kcmp, __NR_pidfd_getfd,
#ifdef __NR_lookup_dcookie
    __NR_lookup_dcookie,
#endif
    __NR_fanotify_init, __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
    __NR_process_madvise, __NR_process_mrelease,
#ifdef __NR_move_mount
    __NR_move_mount, __NR_open_tree, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
};

int skh_enter_seccomp(const struct skh_sandbox_spec *spec, char *error, size_t size) {
    pid_t self = getpid();
    struct program p = {.length = 0};
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
#if defined(__x86_64__)
    emit(&p, JUMP_IF(AUDIT_ARCH_X86_64, 1, 0));
#elif defined(__aarch64__)
    emit(&p, JUMP_IF(AUDIT_ARCH_AARCH64, 1, 0));
#else
#error "seccomp filter: unsupported architecture"
#endif
    emit(&p, RETURN(SECCOMP_RET_KILL_PROCESS));
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    /* x32 system calls are another way in: refuse them all. */
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    emit(&p, RETURN(ERRNO(EPERM)));
#endif
    for (size_t i = 0; i < sizeof always_refused / sizeof always_refused[0]; i++) {
        refuse(&p, always_refused[i], ERRNO(EPERM));
    }
    /* clone3 passes its flags in memory a filter cannot read: glibc falls back to clone on ENOSYS. */
    refuse(&p, __NR_clone3, ERRNO(ENOSYS));

    /* Pushing bytes into a terminal's input (CVE-2017-5226's class) and the console's TIOCLINUX tricks. */
    emit(&p, JUMP_IF(__NR_ioctl, 0, 5));
    emit(&p, LOAD_ARG(1));
    emit(&p, JUMP_IF(SKH_TIOCSTI, 1, 0));
    emit(&p, JUMP_IF(SKH_TIOCLINUX, 0, 1));
    emit(&p, RETURN(ERRNO(EPERM)));
    emit(&p, RETURN(ALLOW));

    /* Scheduling, limits and memory of a process: this one only, never the host's or another's. */
    only_on_self_process(&p, __NR_setpriority, SKH_PRIO_PROCESS, self);
    only_on_self_process(&p, __NR_ioprio_set, SKH_IOPRIO_WHO_PROCESS, self);
    only_on_self(&p, __NR_prlimit64, 0, self);
    only_on_self(&p, __NR_sched_setaffinity, 0, self);
    only_on_self(&p, __NR_sched_setscheduler, 0, self);
    only_on_self(&p, __NR_sched_setparam, 0, self);
    only_on_self(&p, __NR_sched_setattr, 0, self);
    only_on_self(&p, __NR_migrate_pages, 0, self);
    only_on_self(&p, __NR_move_pages, 0, self);

    if (!spec->processes) {
#ifdef __NR_fork
        refuse(&p, __NR_fork, ERRNO(EPERM));
        refuse(&p, __NR_vfork, ERRNO(EPERM));
#endif
        refuse(&p, __NR_execve, ERRNO(EPERM));
        if (spec->exec_descriptor > 2) {
            /* The one exec that starts the confined program: execveat of its descriptor, AT_EMPTY_PATH. The
             * descriptor is numbered at the open-files limit, so the program can never make another one so. */
            emit(&p, JUMP_IF(__NR_execveat, 0, 6));
            emit(&p, LOAD_ARG(0));
            emit(&p, JUMP_IF((uint32_t)spec->exec_descriptor, 0, 3));
            emit(&p, LOAD_ARG(4));
            emit(&p, JUMP_IF(AT_EMPTY_PATH, 0, 1));
            emit(&p, RETURN(ALLOW));
            emit(&p, RETURN(ERRNO(EPERM)));
        } else {
            refuse(&p, __NR_execveat, ERRNO(EPERM));
        }
        /* clone: threads (CLONE_THREAD) yes, processes no. */
        emit(&p, JUMP_IF(__NR_clone, 0, 4));
        emit(&p, LOAD_ARG(0));
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
        emit(&p, RETURN(ALLOW));
        emit(&p, RETURN(ERRNO(EPERM)));
    }
    if (spec->network == SKH_NETWORK_NONE) {
        refuse(&p, __NR_socket, ERRNO(EACCES));
    } else if (spec->network == SKH_NETWORK_PORTS) {
        /* IPv4 and IPv6 stream sockets only: Landlock limits their TCP ports, and it has no rules for UDP, so no
         * datagram, raw, netlink, packet or UNIX sockets (the type's low bits; SOCK_CLOEXEC/NONBLOCK above). */
        emit(&p, JUMP_IF(__NR_socket, 0, 8));
        emit(&p, LOAD_ARG(0));
        emit(&p, JUMP_IF(AF_INET, 1, 0));
        emit(&p, JUMP_IF(AF_INET6, 0, 3));
        emit(&p, LOAD_ARG(1));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf));
        emit(&p, JUMP_IF(SOCK_STREAM, 1, 0));
        emit(&p, RETURN(ERRNO(EACCES)));
        emit(&p, RETURN(ALLOW));
    }
    emit(&p, RETURN(ALLOW));
    if (p.length >= MAX_FILTER) {
        skh_fail(error, size, "seccomp filter too long", E2BIG);
        return -1;
    }
    struct sock_fprog program = {.len = p.length, .filter = p.code};
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0) {
        skh_fail(error, size, "seccomp", errno);
        return -1;
    }
    return 0;
}
