/* attack_attempts.c — the attempts of attack_attempts.h. Each fills an attack_outcome; none prints. */
#define _GNU_SOURCE
#include "attack_attempts.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_sched_setattr
#define SYS_sched_setattr 314
#endif
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_CLASS_SHIFT 13

/* ---- outcomes ---- */

static void got_through(struct attack_outcome *out, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void got_through(struct attack_outcome *out, const char *format, ...) {
    va_list list;
    va_start(list, format);
    out->escaped = 1;
    out->code = 0;
    vsnprintf(out->detail, sizeof out->detail, format, list);
    va_end(list);
}

static void stopped(struct attack_outcome *out, int code, const char *what) {
    out->escaped = 0;
    out->code = code;
    snprintf(out->detail, sizeof out->detail, "%s: %s", what, strerror(code));
}

static void nothing_to_try(struct attack_outcome *out, const char *why) {
    out->escaped = 0;
    out->code = 0;
    snprintf(out->detail, sizeof out->detail, "not tried: %s", why);
}

/* Every pid the attacker can name outside itself: the given targets and its parent. */
static int named_targets(const struct attack_args *a, pid_t *pids) {
    int count = 0;
    for (int i = 0; i < a->target_count && count < 15; i++) {
        if (a->targets[i] > 0 && a->targets[i] != getpid()) pids[count++] = a->targets[i];
    }
    pid_t parent = getppid();
    if (parent > 1) pids[count++] = parent;
    return count;
}

/* ---- files ---- */

static void read_file(const char *path, struct attack_outcome *out) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return stopped(out, errno, path);
    char buffer[64];
    ssize_t got = read(fd, buffer, sizeof buffer);
    int code = errno;
    close(fd);
    if (got < 0) return stopped(out, code, path);
    got_through(out, "read %zd bytes of %s", got, path);
}

static void create_file(const char *path, struct attack_outcome *out) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return stopped(out, errno, path);
    close(fd);
    unlink(path);
    got_through(out, "created %s", path);
}

static void read_home_ssh(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home) return nothing_to_try(out, "no home given");
    char path[4096];
    snprintf(path, sizeof path, "%s/.ssh/id_ed25519", a->home);
    read_file(path, out);
}

static void write_home(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home) return nothing_to_try(out, "no home given");
    char path[4096];
    snprintf(path, sizeof path, "%s/planted-%d", a->home, (int)getpid());
    create_file(path, out);
}

static void read_other_data(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->other_data) return nothing_to_try(out, "no other plugin's file given");
    read_file(a->other_data, out);
}

static void read_tmp(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->tmp_file) return nothing_to_try(out, "no /tmp file given");
    read_file(a->tmp_file, out);
}

static void write_tmp(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    char path[64];
    snprintf(path, sizeof path, "/tmp/skh-attack-%d", (int)getpid());
    create_file(path, out);
}

static void read_etc(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    read_file("/etc/passwd", out);
}

static void write_dev_shm(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    char path[64];
    snprintf(path, sizeof path, "/dev/shm/skh-attack-%d", (int)getpid());
    create_file(path, out);
}

/* Another worker's shared call slot has no name left; its only handle is that worker's descriptor 3. */
static void sibling_slot(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/3", (int)pids[i]);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd >= 0) {
            close(fd);
            return got_through(out, "opened %s", path);
        }
        code = errno;
    }
    stopped(out, code, "open /proc/PID/fd/3 of every target");
}

/* ---- links out of the data folder ---- */

static void hardlink_in(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home || !a->data_dir) return nothing_to_try(out, "no home or data folder");
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/.ssh/id_ed25519", a->home);
    snprintf(to, sizeof to, "%s/linked-%d", a->data_dir, (int)getpid());
    if (link(from, to) != 0) return stopped(out, errno, "link home secret into the data folder");
    struct attack_outcome read = {0};
    read_file(to, &read);
    unlink(to);
    got_through(out, "hard link made (%s)", read.detail);
}

static void symlink_out(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home || !a->data_dir) return nothing_to_try(out, "no home or data folder");
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/.ssh/id_ed25519", a->home);
    snprintf(to, sizeof to, "%s/symlink-%d", a->data_dir, (int)getpid());
    if (symlink(from, to) != 0) return stopped(out, errno, "symlink in the data folder");
    read_file(to, out);
    unlink(to);
}

static void rename_out(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home || !a->data_dir) return nothing_to_try(out, "no home or data folder");
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/moved-%d", a->data_dir, (int)getpid());
    snprintf(to, sizeof to, "%s/moved-%d", a->home, (int)getpid());
    int fd = open(from, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return stopped(out, errno, "create in the data folder");
    close(fd);
    if (rename(from, to) != 0) {
        int code = errno;
        unlink(from);
        return stopped(out, code, "rename out of the data folder into home");
    }
    unlink(to);
    got_through(out, "renamed %s to %s", from, to);
}

static void rename_in(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->home || !a->data_dir) return nothing_to_try(out, "no home or data folder");
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/.ssh/id_ed25519", a->home);
    snprintf(to, sizeof to, "%s/taken-%d", a->data_dir, (int)getpid());
    if (rename(from, to) != 0) return stopped(out, errno, "rename the home secret into the data folder");
    rename(to, from);
    got_through(out, "moved %s into the data folder", from);
}

/* ---- /proc of other processes ---- */

static void proc_entry(const struct attack_args *a, const char *entry, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    if (a->victim > 0 && count < 16) pids[count++] = a->victim;
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/%s", (int)pids[i], entry);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            char buffer[64];
            ssize_t got = read(fd, buffer, sizeof buffer);
            close(fd);
            if (got > 0) return got_through(out, "read %zd bytes of %s", got, path);
            code = got < 0 ? errno : ENODATA;
            continue;
        }
        code = errno;
    }
    stopped(out, code, entry);
}

static void proc_environ(const struct attack_args *a, struct attack_outcome *out) { proc_entry(a, "environ", out); }
static void proc_maps(const struct attack_args *a, struct attack_outcome *out) { proc_entry(a, "maps", out); }
static void proc_cmdline(const struct attack_args *a, struct attack_outcome *out) { proc_entry(a, "cmdline", out); }
static void proc_root(const struct attack_args *a, struct attack_outcome *out) { proc_entry(a, "root/etc/hostname", out); }

static void proc_fd(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd", (int)pids[i]);
        DIR *folder = opendir(path);
        if (folder) {
            int entries = 0;
            while (readdir(folder)) entries++;
            closedir(folder);
            return got_through(out, "listed %s (%d entries)", path, entries);
        }
        code = errno;
    }
    stopped(out, code, "list /proc/PID/fd of every target");
}

/* Which processes outside its own sandbox the attacker can see in /proc at all. */
static void proc_others(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    if (a->victim > 0) pids[count++] = a->victim;
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d", (int)pids[i]);
        struct stat info;
        if (stat(path, &info) == 0) return got_through(out, "%s is visible", path);
    }
    stopped(out, ENOENT, "no target visible in /proc");
}

/* ---- the ptrace family ---- */

static void ptrace_attach(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    if (a->victim > 0) pids[count++] = a->victim;
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        if (ptrace(PTRACE_SEIZE, pids[i], 0, 0) == 0) {
            ptrace(PTRACE_DETACH, pids[i], 0, 0);
            return got_through(out, "seized %d", (int)pids[i]);
        }
        code = errno;
    }
    stopped(out, code, "ptrace(PTRACE_SEIZE)");
}

static void vm_read(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    if (a->victim > 0) pids[count++] = a->victim;
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        char byte;
        struct iovec local = {&byte, 1};
        struct iovec remote = {(void *)0x10000, 1};
        if (syscall(SYS_process_vm_readv, pids[i], &local, 1, &remote, 1, 0) >= 0 || errno == EFAULT) {
            return got_through(out, "process_vm_readv reached %d", (int)pids[i]);
        }
        code = errno;
    }
    stopped(out, code, "process_vm_readv");
}

static void pidfd_steal(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    if (a->victim > 0) pids[count++] = a->victim;
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        int pidfd = (int)syscall(SYS_pidfd_open, pids[i], 0);
        if (pidfd < 0) {
            code = errno;
            continue;
        }
        int stolen = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
        code = errno;
        close(pidfd);
        if (stolen >= 0) {
            close(stolen);
            return got_through(out, "took descriptor 0 of %d", (int)pids[i]);
        }
    }
    stopped(out, code, "pidfd_getfd");
}

/* ---- signals ---- */

static void signal_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    if (kill(a->victim, SIGTERM) == 0) return got_through(out, "sent SIGTERM to %d", (int)a->victim);
    stopped(out, errno, "kill(victim, SIGTERM)");
}

static void signal_targets(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        if (kill(pids[i], 0) == 0) return got_through(out, "may signal %d", (int)pids[i]);
        code = errno;
    }
    stopped(out, code, "kill(target, 0)");
}

/* kill(-1) returns 0 when there was any process to try, even if every one refused: whether the signal
 * arrived only the victim can tell (the test's victim counts SIGURG; it is otherwise ignored). The outcome
 * here says only whether the kernel refused outright. */
static void signal_everyone(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    if (kill(-1, SIGURG) != 0) return stopped(out, errno, "kill(-1, SIGURG)");
    out->escaped = 0;
    out->code = 0;
    snprintf(out->detail, sizeof out->detail, "kill(-1, SIGURG) returned 0: the victim says whether it arrived");
}

/* ---- sockets ---- */

static void tcp_connect(const struct attack_args *a, struct attack_outcome *out) {
    if (a->port <= 0) return nothing_to_try(out, "no port");
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return stopped(out, errno, "socket(AF_INET, SOCK_STREAM)");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)a->port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int result = connect(fd, (struct sockaddr *)&address, sizeof address);
    int code = errno;
    close(fd);
    if (result != 0) return stopped(out, code, "connect to 127.0.0.1");
    got_through(out, "connected to 127.0.0.1:%d", a->port);
}

static void tcp_listen(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return stopped(out, errno, "socket(AF_INET, SOCK_STREAM)");
    struct sockaddr_in address = {.sin_family = AF_INET};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int result = bind(fd, (struct sockaddr *)&address, sizeof address) == 0 ? listen(fd, 1) : -1;
    int code = errno;
    close(fd);
    if (result != 0) return stopped(out, code, "bind/listen on 127.0.0.1");
    got_through(out, "listening on 127.0.0.1");
}

static void udp_send(const struct attack_args *a, struct attack_outcome *out) {
    if (a->udp_port <= 0) return nothing_to_try(out, "no UDP port");
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return stopped(out, errno, "socket(AF_INET, SOCK_DGRAM)");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)a->udp_port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ssize_t sent = sendto(fd, "escaped", 7, 0, (struct sockaddr *)&address, sizeof address);
    int code = errno;
    close(fd);
    if (sent < 0) return stopped(out, code, "sendto 127.0.0.1");
    got_through(out, "sent a UDP datagram to 127.0.0.1:%d", a->udp_port);
}

static void unix_connect(const char *name, int abstract, struct attack_outcome *out) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return stopped(out, errno, "socket(AF_UNIX)");
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    size_t length = strlen(name);
    if (length + 2 > sizeof address.sun_path) {
        close(fd);
        return nothing_to_try(out, "name too long");
    }
    memcpy(address.sun_path + (abstract ? 1 : 0), name, length);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + (abstract ? 1 : 1));
    int result = connect(fd, (struct sockaddr *)&address, size);
    int code = errno;
    close(fd);
    if (result != 0) return stopped(out, code, abstract ? "connect to an abstract UNIX socket" : "connect to a UNIX socket");
    got_through(out, "connected to %s%s", abstract ? "@" : "", name);
}

static void unix_pathname(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->unix_path) return nothing_to_try(out, "no UNIX socket");
    unix_connect(a->unix_path, 0, out);
}

static void unix_abstract(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->abstract_name) return nothing_to_try(out, "no abstract socket");
    unix_connect(a->abstract_name, 1, out);
}

static void netlink_route(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) return stopped(out, errno, "socket(AF_NETLINK)");
    close(fd);
    got_through(out, "made a netlink socket");
}

static void raw_socket(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
    if (fd < 0) fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
    if (fd < 0) return stopped(out, errno, "socket(SOCK_RAW)");
    close(fd);
    got_through(out, "made a raw socket");
}

/* ---- the terminal and inherited descriptors ---- */

static void tiocsti(const struct attack_args *a, struct attack_outcome *out) {
    const char *text = a->inject && *a->inject ? a->inject : " ";
    int code = ENOTTY;
    int descriptors[4] = {0, 1, 2, -1};
    descriptors[3] = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    for (int i = 0; i < 4; i++) {
        if (descriptors[i] < 0) continue;
        int pushed = 0;
        for (const char *c = text; *c; c++) {
            if (ioctl(descriptors[i], TIOCSTI, c) != 0) {
                code = errno;
                break;
            }
            pushed++;
        }
        if (pushed > 0) {
            if (i == 3) close(descriptors[3]);
            return got_through(out, "pushed %d characters into the terminal on descriptor %d", pushed, descriptors[i]);
        }
    }
    if (descriptors[3] >= 0) close(descriptors[3]);
    stopped(out, code, "ioctl(TIOCSTI)");
}

static void tioclinux(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int code = ENOTTY;
    for (int fd = 0; fd < 3; fd++) {
        char subcode = 6; /* TIOCL_GETSHIFTSTATE: harmless, and refused only by a filter */
        if (ioctl(fd, TIOCLINUX, &subcode) == 0) return got_through(out, "TIOCLINUX on descriptor %d", fd);
        code = errno;
        if (code == EPERM) break;
    }
    stopped(out, code, "ioctl(TIOCLINUX)");
}

static void controlling_terminal(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
        close(fd);
        return got_through(out, "opened /dev/tty");
    }
    for (int i = 0; i < 3; i++) {
        if (isatty(i)) return got_through(out, "descriptor %d is a terminal", i);
    }
    stopped(out, errno == 0 ? ENXIO : errno, "open /dev/tty");
}

/* Descriptors a worker should have: /dev/null, pipes, its shared memory, anything it opened itself (none here). */
static void leaked_descriptors(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    DIR *folder = opendir("/proc/self/fd");
    if (!folder) return stopped(out, errno, "list /proc/self/fd");
    int own = dirfd(folder);
    struct dirent *entry;
    while ((entry = readdir(folder))) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        int fd = atoi(entry->d_name);
        if (fd == own) continue;
        char path[64], target[512] = {0};
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (readlink(path, target, sizeof target - 1) < 0) continue;
        if (strcmp(target, "/dev/null") == 0 || strncmp(target, "pipe:", 5) == 0 || strncmp(target, "/memfd:", 7) == 0 ||
            strstr(target, "(deleted)") || strncmp(target, "anon_inode:", 11) == 0 || strncmp(target, "/dev/shm/", 9) == 0) {
            continue;
        }
        closedir(folder);
        return got_through(out, "descriptor %d is %s", fd, target);
    }
    closedir(folder);
    stopped(out, 0, "only /dev/null, pipes and shared memory");
}

/* ---- namespaces, privileges and kernel surface ---- */

static void new_user_namespace(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    if (unshare(CLONE_NEWUSER) == 0) return got_through(out, "unshare(CLONE_NEWUSER)");
    stopped(out, errno, "unshare(CLONE_NEWUSER)");
}

static void join_namespace(const struct attack_args *a, struct attack_outcome *out) {
    pid_t pids[16];
    int count = named_targets(a, pids);
    int code = ESRCH;
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)pids[i]);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            code = errno;
            continue;
        }
        int result = setns(fd, 0);
        code = errno;
        close(fd);
        if (result == 0) return got_through(out, "joined the mount namespace of %d", (int)pids[i]);
    }
    stopped(out, code, "setns");
}

static void io_uring(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    char parameters[120] = {0};
    long fd = syscall(SYS_io_uring_setup, 4, parameters);
    if (fd >= 0) {
        close((int)fd);
        return got_through(out, "io_uring_setup");
    }
    stopped(out, errno, "io_uring_setup");
}

static void bpf_map(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    union bpf_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    long fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr);
    if (fd >= 0) {
        close((int)fd);
        return got_through(out, "bpf(BPF_MAP_CREATE)");
    }
    stopped(out, errno, "bpf");
}

static void keyring(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    long key = syscall(SYS_add_key, "user", "skillhost-attack", "x", 1, -3 /* KEY_SPEC_SESSION_KEYRING */);
    if (key >= 0) return got_through(out, "add_key");
    stopped(out, errno, "add_key");
}

/* Bytes no kernel can run: an exec that was allowed fails with ENOEXEC instead of replacing the worker. */
static void memfd_exec(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    int fd = (int)syscall(SYS_memfd_create, "payload", 0);
    if (fd < 0) return stopped(out, errno, "memfd_create");
    const char script[] = "\x7f\x01not a program";
    if (write(fd, script, sizeof script - 1) < 0) {
        int code = errno;
        close(fd);
        return stopped(out, code, "write memfd");
    }
    char *argv[] = {"payload", NULL};
    char *envp[] = {NULL};
    syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
    int code = errno; /* execveat returns only on failure */
    close(fd);
    if (code == EPERM || code == EACCES) return stopped(out, code, "execveat(memfd)");
    got_through(out, "execveat(memfd) was attempted by the kernel (%s)", strerror(code));
}

static void start_process(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    pid_t child = fork();
    if (child < 0) return stopped(out, errno, "fork");
    if (child == 0) _exit(0);
    waitpid(child, NULL, 0);
    got_through(out, "forked %d", (int)child);
}

static void mount_tmpfs(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->data_dir) return nothing_to_try(out, "no data folder");
    if (mount("none", a->data_dir, "tmpfs", 0, NULL) == 0) {
        umount2(a->data_dir, MNT_DETACH);
        return got_through(out, "mounted a tmpfs");
    }
    stopped(out, errno, "mount");
}

static void capabilities(const struct attack_args *a, struct attack_outcome *out) {
    (void)a;
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) return stopped(out, errno, "capget");
    if (data[0].effective || data[1].effective || data[0].permitted || data[1].permitted) {
        return got_through(out, "holds capabilities (effective %08x%08x)", data[1].effective, data[0].effective);
    }
    /* The bounding set limits what exec can give back; it matters for root (no_new_privs already stops
     * set-uid and file capabilities for everyone, and only root can empty it outside a user namespace). */
    if (getuid() != 0 && geteuid() != 0) return stopped(out, 0, "no capabilities (not root: the bounding set gives nothing under no_new_privs)");
    for (int cap = 0; cap <= 40; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1) return got_through(out, "capability %d is still in the bounding set", cap);
    }
    stopped(out, 0, "no capabilities, empty bounding set");
}

/* ---- other processes' scheduling and limits (really done to the victim) ---- */

static void renice_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    if (setpriority(PRIO_PROCESS, (id_t)a->victim, 19) == 0) return got_through(out, "reniced %d to 19", (int)a->victim);
    stopped(out, errno, "setpriority(victim)");
}

static void renice_group(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    pid_t group = getpgid(a->victim);
    if (group <= 0) return stopped(out, errno, "getpgid(victim)");
    if (setpriority(PRIO_PGRP, (id_t)group, 19) == 0) return got_through(out, "reniced process group %d", (int)group);
    stopped(out, errno, "setpriority(PRIO_PGRP)");
}

static void limit_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    struct rlimit none = {0, 0};
    if (prlimit(a->victim, RLIMIT_NOFILE, &none, NULL) == 0) {
        return got_through(out, "set the open-file limit of %d to 0", (int)a->victim);
    }
    stopped(out, errno, "prlimit(victim, RLIMIT_NOFILE)");
}

static void pin_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    if (sched_setaffinity(a->victim, sizeof set, &set) == 0) return got_through(out, "pinned %d to CPU 0", (int)a->victim);
    stopped(out, errno, "sched_setaffinity(victim)");
}

static void idle_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    struct sched_param parameter = {.sched_priority = 0};
    if (sched_setscheduler(a->victim, SCHED_IDLE, &parameter) == 0) {
        return got_through(out, "moved %d to SCHED_IDLE", (int)a->victim);
    }
    stopped(out, errno, "sched_setscheduler(victim)");
}

static void attr_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    struct {
        uint32_t size, policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
    } attributes = {.size = 48, .policy = 0, .nice = 19};
    if (syscall(SYS_sched_setattr, a->victim, &attributes, 0) == 0) return got_through(out, "sched_setattr on %d", (int)a->victim);
    stopped(out, errno, "sched_setattr(victim)");
}

static void ioprio_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, a->victim, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT) == 0) {
        return got_through(out, "set the I/O priority of %d to idle", (int)a->victim);
    }
    stopped(out, errno, "ioprio_set(victim)");
}

static void madvise_victim(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    int pidfd = (int)syscall(SYS_pidfd_open, a->victim, 0);
    if (pidfd < 0) return stopped(out, errno, "pidfd_open(victim)");
    struct iovec range = {(void *)0x10000, 4096};
    long result = syscall(SYS_process_madvise, pidfd, &range, 1, 21 /* MADV_COLD */, 0);
    int code = errno;
    close(pidfd);
    if (result >= 0 || code == EFAULT || code == ENOMEM) return got_through(out, "process_madvise reached %d", (int)a->victim);
    stopped(out, code, "process_madvise(victim)");
}

static void move_victim_pages(const struct attack_args *a, struct attack_outcome *out) {
    if (a->victim <= 0) return nothing_to_try(out, "no victim");
    if (syscall(SYS_move_pages, a->victim, 0, NULL, NULL, NULL, 0) == 0) return got_through(out, "move_pages on %d", (int)a->victim);
    int code = errno;
    unsigned long mask = 1;
    if (syscall(SYS_migrate_pages, a->victim, 2, &mask, &mask) >= 0) return got_through(out, "migrate_pages on %d", (int)a->victim);
    stopped(out, code, "move_pages/migrate_pages(victim)");
}

/* ---- the environment ---- */

static void reversed(const char *text, char *out, size_t size) {
    size_t length = strlen(text);
    if (length >= size) length = size - 1;
    for (size_t i = 0; i < length; i++) out[i] = text[length - 1 - i];
    out[length] = 0;
}

static void environment_secret(const struct attack_args *a, struct attack_outcome *out) {
    static const char *names[] = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "SKILLHOST_TEST_TOKEN"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (getenv(names[i])) return got_through(out, "%s is set", names[i]);
    }
    if (a->secret) {
        char needle[256];
        reversed(a->secret, needle, sizeof needle);
        extern char **environ;
        for (char **entry = environ; entry && *entry; entry++) {
            if (strstr(*entry, needle)) return got_through(out, "the secret is in the environment");
        }
    }
    stopped(out, 0, "no secret in the environment");
}

static void self_environ(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->secret) return nothing_to_try(out, "no secret given");
    char needle[256];
    reversed(a->secret, needle, sizeof needle);
    int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return stopped(out, errno, "/proc/self/environ");
    static char text[1 << 16];
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got > 0) {
        for (ssize_t i = 0; i < got; i++) if (text[i] == 0) text[i] = '\n';
        text[got] = 0;
        if (strstr(text, needle)) return got_through(out, "the secret is in /proc/self/environ");
    }
    stopped(out, 0, "no secret in /proc/self/environ");
}

/* Reads every readable mapping of the process through /proc/self/mem and looks for the secret anywhere but in
 * the buffer holding the needle itself: a host secret left in the worker's memory (a forked spare's copy of
 * the host's environment) is found here even when environ was cleared. */
static void memory_secret(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->secret) return nothing_to_try(out, "no secret given");
    char *needle = malloc(256);
    reversed(a->secret, needle, 256);
    size_t length = strlen(needle);
    FILE *maps = fopen("/proc/self/maps", "re");
    int memory = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    if (!maps || memory < 0 || length < 8) {
        int code = errno;
        if (maps) fclose(maps);
        if (memory >= 0) close(memory);
        free(needle);
        return stopped(out, code, "read own memory");
    }
    char line[512];
    size_t chunk = 1 << 20;
    char *buffer = malloc(chunk + 256);
    while (fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char permissions[5];
        if (sscanf(line, "%lx-%lx %4s", &start, &end, permissions) != 3 || permissions[0] != 'r') continue;
        if (strstr(line, "[vvar") || strstr(line, "[vsyscall]")) continue;
        for (unsigned long at = start; at < end; at += chunk) {
            size_t size = end - at < chunk + length ? end - at : chunk + length;
            ssize_t got = pread(memory, buffer, size, (off_t)at);
            if (got <= 0) break;
            for (ssize_t i = 0; i + (ssize_t)length <= got; i++) {
                if (buffer[i] == needle[0] && memcmp(buffer + i, needle, length) == 0) {
                    unsigned long where = at + (unsigned long)i;
                    if (where == (unsigned long)needle || (where >= (unsigned long)buffer && where < (unsigned long)buffer + chunk + 256)) continue;
                    free(buffer);
                    free(needle);
                    fclose(maps);
                    close(memory);
                    return got_through(out, "the secret is in the worker's memory at %#lx", where);
                }
            }
        }
    }
    free(buffer);
    free(needle);
    fclose(maps);
    close(memory);
    stopped(out, 0, "no secret in the worker's memory");
}

/* ---- resources (alone: one call each) ---- */

static void fork_bomb(const struct attack_args *a, struct attack_outcome *out) {
    long bound = a->bound > 0 ? a->bound : 4096;
    int made = 0, code = 0;
    int gate[2];
    if (pipe(gate) != 0) return stopped(out, errno, "pipe");
    for (; made < bound * 2 + 8; made++) {
        pid_t child = fork();
        if (child < 0) {
            code = errno;
            break;
        }
        if (child == 0) {
            char byte;
            close(gate[1]);
            read(gate[0], &byte, 1); /* until the attacker lets go */
            _exit(0);
        }
    }
    close(gate[0]);
    close(gate[1]); /* every child's read returns: they exit */
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {}
    if (made > bound) return got_through(out, "started %d processes (the bound is %ld)", made, bound);
    out->escaped = 0;
    out->code = code;
    snprintf(out->detail, sizeof out->detail, "stopped after %d processes: %s", made, strerror(code));
}

static void disk_fill(const struct attack_args *a, struct attack_outcome *out) {
    if (!a->data_dir) return nothing_to_try(out, "no data folder");
    long bound = a->bound > 0 ? a->bound : (1L << 30);
    char path[4096];
    snprintf(path, sizeof path, "%s/fill-%d", a->data_dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return stopped(out, errno, "create in the data folder");
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    long written = 0;
    int code = 0;
    while (written <= bound * 2) {
        ssize_t put = write(fd, block, sizeof block);
        if (put <= 0) {
            code = put < 0 ? errno : ENOSPC;
            break;
        }
        written += put;
    }
    close(fd);
    unlink(path);
    if (written > bound) return got_through(out, "wrote %ld bytes (the bound is %ld)", written, bound);
    out->escaped = 0;
    out->code = code;
    snprintf(out->detail, sizeof out->detail, "stopped after %ld bytes: %s", written, strerror(code));
}

static void memory_fill(const struct attack_args *a, struct attack_outcome *out) {
    long bound = a->bound > 0 ? a->bound : (8L << 30);
    long taken = 0;
    size_t step = 16 << 20;
    void **blocks = calloc(4096, sizeof *blocks);
    int count = 0;
    while (taken <= bound * 2 && count < 4096) {
        char *block = mmap(NULL, step, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (block == MAP_FAILED) break;
        for (size_t i = 0; i < step; i += 4096) block[i] = 1;
        blocks[count++] = block;
        taken += (long)step;
    }
    int code = errno;
    for (int i = 0; i < count; i++) munmap(blocks[i], step);
    free(blocks);
    if (taken > bound) return got_through(out, "took %ld bytes (the bound is %ld)", taken, bound);
    out->escaped = 0;
    out->code = code;
    snprintf(out->detail, sizeof out->detail, "stopped after %ld bytes: %s", taken, strerror(code));
}

/* ---- the table ---- */

const struct attack_attempt attack_attempts[] = {
    {"read_home_ssh", "files", read_home_ssh, 0},
    {"write_home", "files", write_home, 0},
    {"read_other_data", "files", read_other_data, 0},
    {"read_tmp", "files", read_tmp, 0},
    {"write_tmp", "files", write_tmp, 0},
    {"read_etc", "files", read_etc, 0},
    {"write_dev_shm", "files", write_dev_shm, 0},
    {"sibling_slot", "files", sibling_slot, 0},
    {"hardlink_in", "links", hardlink_in, 0},
    {"symlink_out", "links", symlink_out, 0},
    {"rename_out", "links", rename_out, 0},
    {"rename_in", "links", rename_in, 0},
    {"proc_environ", "proc", proc_environ, 0},
    {"proc_maps", "proc", proc_maps, 0},
    {"proc_cmdline", "proc", proc_cmdline, 0},
    {"proc_root", "proc", proc_root, 0},
    {"proc_fd", "proc", proc_fd, 0},
    {"proc_others", "proc", proc_others, 0},
    {"ptrace_attach", "ptrace", ptrace_attach, 0},
    {"vm_read", "ptrace", vm_read, 0},
    {"pidfd_steal", "ptrace", pidfd_steal, 0},
    {"signal_targets", "signals", signal_targets, 0},
    {"signal_everyone", "signals", signal_everyone, 0},
    {"tcp_connect", "sockets", tcp_connect, 0},
    {"tcp_listen", "sockets", tcp_listen, 0},
    {"udp_send", "sockets", udp_send, 0},
    {"unix_pathname", "sockets", unix_pathname, 0},
    {"unix_abstract", "sockets", unix_abstract, 0},
    {"netlink_route", "sockets", netlink_route, 0},
    {"raw_socket", "sockets", raw_socket, 0},
    {"tiocsti", "terminal", tiocsti, 0},
    {"tioclinux", "terminal", tioclinux, 0},
    {"controlling_terminal", "terminal", controlling_terminal, 0},
    {"leaked_descriptors", "descriptors", leaked_descriptors, 0},
    {"new_user_namespace", "namespaces", new_user_namespace, 0},
    {"join_namespace", "namespaces", join_namespace, 0},
    {"io_uring", "kernel", io_uring, 0},
    {"bpf_map", "kernel", bpf_map, 0},
    {"keyring", "kernel", keyring, 0},
    {"memfd_exec", "processes", memfd_exec, 0},
    {"start_process", "processes", start_process, 0},
    {"mount_tmpfs", "kernel", mount_tmpfs, 0},
    {"capabilities", "privileges", capabilities, 0},
    {"renice_victim", "other processes", renice_victim, 0},
    {"renice_group", "other processes", renice_group, 0},
    {"limit_victim", "other processes", limit_victim, 0},
    {"pin_victim", "other processes", pin_victim, 0},
    {"idle_victim", "other processes", idle_victim, 0},
    {"attr_victim", "other processes", attr_victim, 0},
    {"ioprio_victim", "other processes", ioprio_victim, 0},
    {"madvise_victim", "other processes", madvise_victim, 0},
    {"move_victim_pages", "other processes", move_victim_pages, 0},
    /* After every other attempt on the victim: with no sandbox it ends the victim. */
    {"signal_victim", "signals", signal_victim, 0},
    {"environment_secret", "environment", environment_secret, 0},
    {"self_environ", "environment", self_environ, 0},
    {"memory_secret", "environment", memory_secret, 0},
    {"fork_bomb", "resources", fork_bomb, 1},
    {"disk_fill", "resources", disk_fill, 1},
    {"memory_fill", "resources", memory_fill, 1},
};

const size_t attack_attempt_count = sizeof attack_attempts / sizeof attack_attempts[0];

const struct attack_attempt *attack_at(size_t index) {
    return index < attack_attempt_count ? &attack_attempts[index] : NULL;
}

const struct attack_attempt *attack_find(const char *name) {
    for (size_t i = 0; i < attack_attempt_count; i++) {
        if (strcmp(attack_attempts[i].name, name) == 0) return &attack_attempts[i];
    }
    return NULL;
}
