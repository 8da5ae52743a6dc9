/* The kernel half of SkillHost's worker sandbox (issue #10): Landlock, seccomp-bpf, no_new_privs, the
 * parent-death signal and the subreaper. Swift resolves the policy (Sources/SkillHostCore/Sandbox/) and
 * hands it here as plain data; nothing here allocates or prints. See docs/isolation.md, "Sandbox". */
#ifndef SKILLHOST_SANDBOX_H
#define SKILLHOST_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Access a path rule grants. */
enum skh_access {
    SKH_ACCESS_READ = 0,       /* open files for reading, list directories */
    SKH_ACCESS_READ_WRITE = 1, /* also write, create, remove, rename inside */
    SKH_ACCESS_EXECUTE = 2,    /* read and execute/map (libraries, the runtime) */
};

/** One filesystem rule: everything beneath `path` (or the file itself) with `access`. */
struct skh_path_rule {
    const char *path;
    int access;
};

/** Network modes. */
enum skh_network {
    SKH_NETWORK_NONE = 0, /* no sockets but socketpair */
    SKH_NETWORK_PORTS = 1, /* TCP connect to the listed ports only; no bind */
    SKH_NETWORK_ANY = 2,   /* unrestricted */
};

/** The policy the worker enters before it loads the plugin. */
struct skh_sandbox_spec {
    const struct skh_path_rule *rules;
    size_t rule_count;
    int network;
    const uint16_t *ports;
    size_t port_count;
    int processes; /* nonzero: fork/exec allowed */
};

/** The Landlock ABI version the running kernel offers; 0 when Landlock is missing or disabled. */
int skh_landlock_abi(void);

/**
 * Writes the paths of the executable and every loaded shared object into `buffer`, each followed by a
 * NUL (cheaper than reading /proc/self/maps). Returns the bytes used; stops early when `size` runs out.
 */
size_t skh_loaded_objects(char *buffer, size_t size);

/** Number of threads in the calling process (from /proc/self/task); -1 when it cannot be read. */
int skh_thread_count(void);

/**
 * Enters the sandbox: PR_SET_NO_NEW_PRIVS, PR_SET_PDEATHSIG(SIGKILL), PR_SET_CHILD_SUBREAPER, the Landlock
 * domain (when `use_landlock` and the kernel has it) and the seccomp filter (all threads, TSYNC).
 * Must run while the process has one thread (Landlock restricts the calling thread and its future
 * children). Returns 0, or -1 with a one-line reason in `error`.
 */
int skh_sandbox_enter(const struct skh_sandbox_spec *spec, int use_landlock, char *error, size_t error_size);

/**
 * Kills every process the caller left behind: its children, and (as subreaper) every orphan that was
 * reparented to it, in rounds until none is left (at most `rounds`). Async-signal-safe.
 */
void skh_kill_descendants(int rounds);

/**
 * PR_SET_PDEATHSIG(SIGKILL): the calling process dies with the host that started it (even one killed with
 * SIGKILL), whatever its sandbox. Exits at once when the parent is already gone. Returns 0, or -1 (errno).
 */
int skh_die_with_parent(void);

/** Installs a SIGTERM handler that kills the descendants, then dies of SIGTERM. */
void skh_kill_descendants_on_sigterm(void);

#ifdef __cplusplus
}
#endif
#endif
