/* Entering the sandbox: the order of the steps, capabilities, and what the Swift side asks of the process
 * (its loaded objects, its thread count, its death signal, its inherited environment). */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void skh_fail(char *error, size_t size, const char *what, int code) {
    if (error && size) snprintf(error, size, "%s: %s", what, strerror(code));
}

int skh_each_number(const char *directory, void (*each)(long, void *), void *context) {
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

int skh_thread_count(void) { return skh_each_number("/proc/self/task", NULL, NULL); }

int skh_die_with_parent(void) {
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    if (getppid() != parent) _exit(0); /* the host died before the death signal was armed */
    return 0;
}

/* Every capability gone for good: securebits locked so that exec (even of a set-uid root program, or as
 * root) brings none back, the bounding and ambient sets emptied, then the process's own sets. A process
 * without CAP_SETPCAP (an unprivileged user outside a user namespace) has nothing to drop but its sets;
 * no_new_privs then keeps exec from adding any. */
static int drop_capabilities(char *error, size_t size) {
    prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                                 SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                                 SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
          0, 0, 0);
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno == EINVAL) break;
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) {
        skh_fail(error, size, "capset", errno);
        return -1;
    }
    return 0;
}

int skh_sandbox_enter(const struct skh_sandbox_spec *spec, int use_landlock, char *error, size_t error_size) {
    if (error && error_size) error[0] = 0;
    /* A session of its own: no controlling terminal, no process group shared with the host or the shell. */
    if (setsid() < 0 && getsid(0) != getpid()) {
        skh_fail(error, error_size, "setsid", errno);
        return -1;
    }
    if (drop_capabilities(error, error_size) != 0) return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        skh_fail(error, error_size, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
        return -1;
    }
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        skh_fail(error, error_size, "prctl(PR_SET_PDEATHSIG / PR_SET_CHILD_SUBREAPER)", errno);
        return -1;
    }
    if (getppid() != parent) _exit(0); /* the host died before the death signal was armed */
    if (use_landlock) {
        int abi = skh_landlock_abi();
        if (abi <= 0) {
            skh_fail(error, error_size, "Landlock", EOPNOTSUPP);
            return -1;
        }
        int threads = skh_thread_count();
        if (threads != 1) {
            if (error && error_size) {
                snprintf(error, error_size, "Landlock needs a single-threaded process, found %d threads", threads);
            }
            return -1;
        }
        if (skh_enter_landlock(spec, abi, error, error_size) != 0) return -1;
    }
    return skh_enter_seccomp(spec, error, error_size);
}

/* The environment strings the process started with lie between env_start and env_end of its memory (fields
 * 50 and 51 of /proc/self/stat); /proc/self/environ reads exactly that range. */
void skh_scrub_inherited_environment(void) {
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char text[2048];
        ssize_t got = read(fd, text, sizeof text - 1);
        close(fd);
        char *after = got > 0 ? (text[got] = 0, strrchr(text, ')')) : NULL;
        unsigned long start = 0, end = 0;
        if (after) {
            /* Field 3 follows ")"; env_start is field 50. */
            int field = 2;
            for (char *c = after + 1; *c && field < 51; c++) {
                if (*c != ' ') continue;
                field++;
                if (field == 50) start = strtoul(c + 1, NULL, 10);
                if (field == 51) end = strtoul(c + 1, NULL, 10);
            }
        }
        if (start && end > start && end - start < (64UL << 20)) memset((void *)start, 0, end - start);
    }
    clearenv();
}
