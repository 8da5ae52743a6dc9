/* What the CSandbox files share; not part of the module's interface. */
#ifndef SKILLHOST_SANDBOX_INTERNAL_H
#define SKILLHOST_SANDBOX_INTERNAL_H

#include "skillhost_sandbox.h"

#include <stddef.h>

/** Writes "what: strerror(code)" into `error` (when there is room). */
void skh_fail(char *error, size_t size, const char *what, int code);

/** Calls `each(number, context)` for every decimal entry of a /proc directory; returns the count, -1 on
 * error. Uses getdents64 directly (no malloc), so it is async-signal-safe. */
int skh_each_number(const char *directory, void (*each)(long, void *), void *context);

/** Enters the Landlock domain of `spec` (path rules, TCP ports, signal and abstract-socket scoping). */
int skh_enter_landlock(const struct skh_sandbox_spec *spec, int abi, char *error, size_t size);

/** Installs the seccomp filter of `spec` on every thread. */
int skh_enter_seccomp(const struct skh_sandbox_spec *spec, char *error, size_t size);

/** In a PID and mount namespace: a /proc of the namespace's own, and its pid_max when `process_limit` > 0.
 * Returns 1 when /proc was mounted, 0 when the kernel refused (the old /proc stays; not an error). */
int skh_mount_namespace_proc(long process_limit);

#endif
