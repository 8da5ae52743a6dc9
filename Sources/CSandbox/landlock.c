/* Landlock: which files the sandboxed process may touch, which TCP ports it may connect to, and that it can
 * neither signal nor reach through abstract UNIX sockets anything outside its domain. */
#define _GNU_SOURCE
#include "sandbox_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

int skh_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, SKH_LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

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

int skh_enter_landlock(const struct skh_sandbox_spec *spec, int abi, char *error, size_t size) {
    struct skh_ruleset_attr attr = {.handled_access_fs = handled_fs(abi)};
    if (abi >= 4 && spec->network != SKH_NETWORK_ANY) attr.handled_access_net = SKH_NET_BIND_TCP | SKH_NET_CONNECT_TCP;
    if (abi >= 6) attr.scoped = SKH_SCOPE_ABSTRACT_UNIX_SOCKET | SKH_SCOPE_SIGNAL;
    size_t attr_size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        skh_fail(error, size, "landlock_create_ruleset", errno);
        return -1;
    }
    for (size_t i = 0; i < spec->rule_count; i++) {
        if (add_path_rule(ruleset, &spec->rules[i], attr.handled_access_fs) != 0) {
            char what[512];
            snprintf(what, sizeof what, "landlock rule for %s", spec->rules[i].path);
            skh_fail(error, size, what, errno);
            close(ruleset);
            return -1;
        }
    }
    if (attr.handled_access_net && spec->network == SKH_NETWORK_PORTS) {
        for (size_t i = 0; i < spec->port_count; i++) {
            struct skh_net_port_attr port = {.allowed_access = SKH_NET_CONNECT_TCP, .port = spec->ports[i]};
            if (syscall(__NR_landlock_add_rule, ruleset, SKH_LL_RULE_NET_PORT, &port, 0) != 0) {
                skh_fail(error, size, "landlock port rule", errno);
                close(ruleset);
                return -1;
            }
        }
    }
    if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) {
        skh_fail(error, size, "landlock_restrict_self", errno);
        close(ruleset);
        return -1;
    }
    close(ruleset);
    return 0;
}
