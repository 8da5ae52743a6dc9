/* The kernel half of SkillHost's sandbox (issues #10, #34): namespaces, Landlock, seccomp-bpf, capabilities,
 * no_new_privs, the parent-death signal and the subreaper. Swift resolves the policy
 * (Sources/SkillHostCore/Sandbox/) and hands it here as plain data; nothing here prints. See
 * docs/isolation.md, "Sandbox". Every process that maps plugin code — a worker, the scanner — enters it before
 * the plugin's first byte runs. */
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
    SKH_NETWORK_NONE = 0,  /* no sockets but socketpair */
    SKH_NETWORK_PORTS = 1, /* IPv4/IPv6 TCP sockets, connecting to the listed ports only; no bind, no UDP */
    SKH_NETWORK_ANY = 2,   /* unrestricted */
};

/** The policy a sandboxed process enters before it loads plugin code. */
struct skh_sandbox_spec {
    const struct skh_path_rule *rules;
    size_t rule_count;
    int network;
    const uint16_t *ports;
    size_t port_count;
    int processes; /* nonzero: fork/exec allowed */
    /* With processes 0: a descriptor (> 2) of the one program that may still be started, by
     * execveat(exec_descriptor, "", ..., AT_EMPTY_PATH) — `skillhost-sandbox --confine --sb-procs 0` starts
     * its program so; every other exec, and every fork, is refused. 0: none. */
    int exec_descriptor;
};

/** What `skh_namespaces_enter` managed: a bit per namespace (SKH_NS_*), 0 when none. */
enum skh_namespace_bits {
    SKH_NS_USER = 1,
    SKH_NS_PID = 2,
    SKH_NS_MOUNT = 4,
    SKH_NS_IPC = 8,
    SKH_NS_NET = 16,
    SKH_NS_PROC = 32, /* a /proc of the PID namespace's own is mounted */
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
 * The first layer: moves the calling process into new user, PID, mount and IPC namespaces (and a network
 * namespace when `network` is nonzero), mapping only its own user and group. A PID namespace applies to
 * children, so the caller forks twice: the first child is the namespace's init (it only reaps), the second
 * is the sandboxed process and the only one that returns (with the SKH_NS_* bits that hold; before it returns
 * it mounts a /proc of the namespace's own and sets its pid_max from `process_limit`, at least 301). The caller
 * itself never returns: it stays outside as a supervisor that forwards SIGTERM/SIGINT/SIGHUP to the
 * sandboxed process, waits for it, kills the namespace, and ends exactly as it ended (same exit status or
 * signal), so whoever started it sees no difference. Every descriptor the caller had goes to the sandboxed
 * process; the supervisor and init keep none. Both die with the supervisor's parent.
 *
 * Must run while the process has one thread. Returns 0 without changing anything when the kernel refuses a
 * user namespace (containers, `user.max_user_namespaces = 0`), with the reason in `error`; -1 when it
 * failed half way (the reason in `error`; the process must not load plugin code).
 */
int skh_namespaces_enter(int network, long process_limit, char *error, size_t error_size);

/**
 * `skh_namespaces_enter(network, …)`, remembering the outcome for skh_early_namespaces(). Called by a
 * constructor before `main` for `skillhost __worker …`/`__scan …` command lines with `--sb-ns 1` (a process
 * that forks after it has run a while pays for every page its child must fault in again), and by a spare
 * worker right after it was forked from the host.
 */
int skh_namespaces_enter_early(int network, long process_limit);

/** The PID namespace's process limit a worker's command line asks for: `--nproc N` when `--sb-procs 1` (threads
 * count against pid_max too, so a plugin that may not start processes keeps the kernel's), else 0. */
long skh_process_limit_of(int argc, char **argv);

/** The environment variable skillhost-sandbox sets for the program it starts: "BITS:REASON" (what
 * skh_namespaces_enter returned, and why not). Read and removed by a constructor before `main`. */
#define SKH_NAMESPACES_STATE_VARIABLE "SKILLHOST_SANDBOX_STATE"

/** Records the state skillhost-sandbox passed (see SKH_NAMESPACES_STATE_VARIABLE) for skh_early_namespaces(). */
void skh_record_namespaces_from_helper(const char *state);

/**
 * What skh_namespaces_enter_early() got: -2 when it was not called, else its return value (the reason for
 * 0 or -1 in `error`).
 */
int skh_early_namespaces(char *error, size_t error_size);

/**
 * skillhost-sandbox's way in: the namespaces and the init as skh_namespaces_enter makes them (when
 * `namespaces`), then a child (vforked: it only sets itself up and execs) that runs `argv[0]` with `argv`,
 * SKILLHOST_SANDBOX_STATE telling it what it got; this process supervises it and ends as it ends. Where the
 * kernel refuses the namespaces (or making them failed, or they were not asked for), execs `argv[0]` itself
 * with the reason in the state. `prepare(context, bits)`, when given, runs in the process that is about to exec
 * (`bits`: the SKH_NS_* it is in),
 * right before the exec (after the namespaces: the second layer of a confined program); a nonzero result ends
 * that process with status 126 (`prepare` says why on stderr). Returns only when an exec failed.
 */
int skh_namespaces_exec(char *const argv[], long process_limit, int namespaces, int (*prepare)(void *, int), void *context);

/** When > 0, skh_namespaces_exec starts its program by execveat(this, "", argv, envp, AT_EMPTY_PATH) instead of
 * execve(argv[0]): the one exec a confined program without processes may make (set by `prepare`). */
extern int skh_exec_descriptor;

/**
 * Can this process make the namespaces `skh_namespaces_enter` makes? Forks a child that tries (≈0.3 ms).
 * Returns the SKH_NS_* bits it managed (0: none), the reason for a refusal in `error`.
 */
int skh_namespaces_probe(char *error, size_t error_size);

/**
 * The second layer, entered by the sandboxed process: a session of its own (no controlling terminal); every
 * capability dropped (bounding set and ambient too, securebits locked so
 * no exec brings them back); PR_SET_NO_NEW_PRIVS, PR_SET_PDEATHSIG(SIGKILL), PR_SET_CHILD_SUBREAPER; the
 * Landlock domain (when `use_landlock` and the kernel has it) and the seccomp filter (all threads, TSYNC).
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

/**
 * Overwrites the strings of the environment the process started with (what /proc/self/environ shows and
 * what a forked child inherits) with zeros, then empties `environ`. Run in a child forked from the host
 * (a spare worker), before it sets the environment it may keep.
 */
void skh_scrub_inherited_environment(void);

#ifdef __cplusplus
}
#endif
#endif
