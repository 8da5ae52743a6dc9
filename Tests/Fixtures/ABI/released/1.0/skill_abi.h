/*
 * skill_abi.h — the SkillHost plugin ABI, version 1.
 *
 * Who includes this: every skill plugin (C plugins include it alone; Swift plugins get it through
 * SkillSDK) and the host. It is the whole contract between them: nothing else crosses the boundary.
 *
 * Rules that hold for every function below
 * ----------------------------------------
 *  - Only plain C data crosses: integers, NUL-terminated UTF-8 strings, and JSON documents passed as
 *    (pointer, length) UTF-8 bytes. Never language-level objects (Swift values, C++ classes).
 *  - Nothing unwinds across the boundary: no C++ exception, Swift error or longjmp. Every failure is a
 *    status code plus a JSON error object.
 *  - Memory is freed by whoever allocated it. Results returned by a plugin are released by the host
 *    through the plugin's own `free_result`. Pointers the host hands in stay valid until the function
 *    they were passed to returns, unless stated otherwise.
 *  - The host never unloads a plugin (no dlclose): data with "static lifetime" lives until the process
 *    exits. To reload a plugin the host restarts the worker process that holds it.
 *  - Every top-level struct begins with its size (`struct_size`). Structs only grow at the end; a reader
 *    checks `struct_size` before touching a field added in a later minor version (SQLite's
 *    `sqlite3_api_routines` and CLAP's versioned structs work the same way). The 1.0 layout (offsets,
 *    sizes, types, constants) is frozen in the repository's Tests/Fixtures/ABI/abi_layout_1_0.c, which the
 *    tests compile against this header.
 *  - Both directions must work within one major: a plugin built against a later 1.x header (bigger
 *    structs) on an older 1.x host, and the reverse. So a reader accepts any struct_size of at least the
 *    1.0 size (SKILL_*_SIZE_1_0 below; never compare with sizeof, which grows with the header), and reads or
 *    writes a field added later only when SKILL_STRUCT_HAS(ptr, type, field) says struct_size covers it.
 *
 * Thread tags (written above each function, as CLAP does)
 * ---------------------------------------------------------
 *  [load-thread]  the thread that loaded the library; called once.
 *  [any-thread]   any host thread, possibly several at once.
 *  [call-thread]  the thread the current `invoke` runs on, during that invoke only.
 *  [blocking-ok]  the function may block; the host calls it from a thread it owns (never from a Swift
 *                 concurrency executor or an event loop).
 *
 * Versioning
 * ----------
 *  SKILL_ABI_VERSION_MAJOR changes only for an incompatible change: the host refuses a plugin with another
 *  major. SKILL_ABI_VERSION_MINOR grows when fields are appended; the host accepts any minor, and uses a
 *  field only when `struct_size` shows it is present.
 *
 * Plugin ids and skill ids (see docs/ids.md)
 * ------------------------------------------
 *  An id is one or more dot-separated segments of [a-z0-9_-], at most 128 bytes; a skill id is
 *  "<plugin id>.<name>", e.g. "calendar.create_event". The manifest must write ids in exactly this form
 *  (lower case): the host calls invoke with the skill id exactly as the manifest wrote it. What users and
 *  models type is normalized by the host (trim, drop Unicode Cf characters, NFKC, lowercase).
 */
#ifndef SKILL_ABI_H
#define SKILL_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------
 * Versions and magic
 * ------------------------------------------------------------------------------------------------ */

/** First field of `skill_plugin_descriptor`: the bytes "SKL1" read as a little-endian uint32. */
#define SKILL_ABI_MAGIC 0x314C4B53u
#define SKILL_ABI_VERSION_MAJOR 1
#define SKILL_ABI_VERSION_MINOR 0

/* The sizes of the size-prefixed structs in ABI 1.0 (LP64): the smallest struct_size a reader of any 1.x
 * accepts. Pinned by abi_layout_checks.c. */
#define SKILL_HOST_API_SIZE_1_0 40u
#define SKILL_CALL_CONTEXT_SIZE_1_0 104u
#define SKILL_RESULT_SIZE_1_0 32u
#define SKILL_PLUGIN_DESCRIPTOR_SIZE_1_0 48u

/* Whether the struct at `ptr` (of `type`, which begins with struct_size) is big enough to hold `field`:
 * use it before touching a field that a minor version after 1.0 appended. */
#define SKILL_STRUCT_HAS(ptr, type, field) \
    ((size_t)(ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/** The one symbol a plugin exports. Fixed: never derived from the file name. */
#define SKILL_PLUGIN_ENTRY_SYMBOL "skill_plugin_entry"

/* ------------------------------------------------------------------------------------------------
 * Status codes (int32_t). Values are stable; new codes are appended.
 * ------------------------------------------------------------------------------------------------ */

typedef int32_t skill_status;

#define SKILL_STATUS_OK 0                /* result JSON is the skill's output */
#define SKILL_STATUS_INVALID_ARGUMENTS 1 /* the arguments do not fit; error JSON says which field */
#define SKILL_STATUS_FAILED 2            /* the skill ran and failed; error JSON says why */
#define SKILL_STATUS_NOT_FOUND 3         /* no skill with that id in this plugin */
#define SKILL_STATUS_CANCELLED 4         /* the skill saw the cancellation flag and stopped */
#define SKILL_STATUS_TIMEOUT 5           /* the skill passed its deadline and stopped */
#define SKILL_STATUS_PERMISSION_DENIED 6 /* the OS or a policy refused an operation */
#define SKILL_STATUS_INTERNAL 7          /* a bug in the plugin (e.g. it could not encode its result) */

/* Log levels for the host's log callbacks. */
#define SKILL_LOG_DEBUG 0
#define SKILL_LOG_INFO 1
#define SKILL_LOG_WARNING 2
#define SKILL_LOG_ERROR 3

/* ------------------------------------------------------------------------------------------------
 * Host API table: what the host offers the plugin for its whole lifetime.
 * Append-only. Owned by the host; valid until the process exits (static lifetime).
 * ------------------------------------------------------------------------------------------------ */

typedef struct skill_host_api {
    /* sizeof(skill_host_api) as compiled into the host. Check it before reading a later field. */
    uint32_t struct_size;
    /* The ABI version the host implements. */
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t reserved0;
    /* The host's own context pointer; plugins pass the table back, never read this. */
    void *host_data;

    /* --- ABI 1.0 --- */

    /* Writes one log line attributed to the plugin. `message` is UTF-8, `length` bytes, not
     * necessarily NUL-terminated; the host copies it before returning.
     * [any-thread] */
    void (*log)(const struct skill_host_api *host, int32_t level, const char *message, size_t length);

    /* Looks up an optional host feature by string id with a revision, e.g. "skillhost.clock/1"
     * (CLAP's convention). Returns NULL when the host does not offer it; the returned table has
     * static lifetime and starts with its own struct_size.
     * [any-thread] */
    const void *(*get_extension)(const struct skill_host_api *host, const char *extension_id);

    /* New functions are appended here, under a "--- ABI 1.x ---" comment. */
} skill_host_api;

/* ------------------------------------------------------------------------------------------------
 * Call context: everything a skill may know about the current call.
 * Append-only. Owned by the host; valid only during the `invoke` it is passed to. Strings are
 * NUL-terminated UTF-8 and are never NULL (an absent value is "").
 * ------------------------------------------------------------------------------------------------ */

typedef struct skill_call_context {
    uint32_t struct_size;
    uint32_t reserved0;

    /* Unique id of this call (for logs and traces). */
    const char *call_id;
    /* The conversation/session the call belongs to; "" outside a session. */
    const char *session_id;
    /* Same key for retries of the same logical call: a non-idempotent skill uses it to avoid repeating
     * a side effect it already performed. */
    const char *idempotency_key;
    /* Wall-clock deadline in milliseconds since the Unix epoch; 0 when there is none. A skill that loops
     * checks it (and `is_cancelled`) and stops with SKILL_STATUS_TIMEOUT. In a worker process the host
     * also enforces it by killing the process. */
    int64_t deadline_unix_ms;

    /* The plugin's configuration from the registry, a JSON object ("{}" when none). `config_json_length`
     * bytes, also NUL-terminated. */
    const char *config_json;
    size_t config_json_length;
    /* A folder the plugin may keep data in; it exists when the call starts. */
    const char *data_dir;

    /* The host's own context pointer; pass the context back, never read this. */
    void *host_data;

    /* --- ABI 1.0 --- */

    /* Returns nonzero once the host has cancelled this call. Cheap; poll it in loops.
     * [any-thread] while the call runs. */
    int32_t (*is_cancelled)(const struct skill_call_context *context);

    /* Writes one log line attributed to this call (the host copies `message`).
     * [call-thread] */
    void (*log)(const struct skill_call_context *context, int32_t level, const char *message, size_t length);

    /* Reads a JSON value that an earlier skill stored in the session's execution context under `key`.
     * Returns 1 and sets *value_json / *value_length when found, 0 when not. The bytes are owned by the
     * host and stay valid until this invoke returns; copy them to keep them.
     * [call-thread] */
    int32_t (*context_get)(const struct skill_call_context *context, const char *key, const char **value_json,
                           size_t *value_length);

    /* Stores a JSON value (UTF-8, `value_length` bytes) under `key` in the session's execution context,
     * so later skills in the session can read it. The host copies the bytes. Returns SKILL_STATUS_OK, or
     * SKILL_STATUS_INVALID_ARGUMENTS when the bytes are not JSON.
     * [call-thread] */
    skill_status (*context_set)(const struct skill_call_context *context, const char *key, const char *value_json,
                                size_t value_length);

    /* New fields are appended here. */
} skill_call_context;

/* ------------------------------------------------------------------------------------------------
 * Result of one invoke. The host zero-fills it and sets struct_size; the plugin fills the rest.
 * ------------------------------------------------------------------------------------------------ */

typedef struct skill_result {
    /* Set by the host before the call: sizeof(skill_result) as the host knows it. */
    uint32_t struct_size;
    /* Same value the plugin returns from invoke. */
    skill_status status;
    /* On SKILL_STATUS_OK: the result as UTF-8 JSON (any JSON value; an object conforming to the skill's
     * "output_schema" when its manifest declares one, or the host reports the call as failed).
     * Otherwise: a JSON object {"message": "...", "field": "/json/pointer"?, "remedy": "..."?}, or NULL.
     * Owned by the plugin; valid until the host passes this result to `free_result`. */
    const char *json;
    size_t json_length;
    /* The plugin's private pointer for `free_result`; the host never reads it. */
    void *plugin_data;
} skill_result;

/* ------------------------------------------------------------------------------------------------
 * Plugin descriptor: returned by skill_plugin_entry.
 * Owned by the plugin, static lifetime, never written to after it is returned.
 * ------------------------------------------------------------------------------------------------ */

typedef struct skill_plugin_descriptor {
    /* SKILL_ABI_MAGIC. The host checks magic, abi_major and struct_size before reading anything else. */
    uint32_t magic;
    /* The ABI the plugin was compiled against. The host refuses another major; minor may differ. */
    uint16_t abi_major;
    uint16_t abi_minor;
    /* sizeof(skill_plugin_descriptor) as the plugin was compiled. The host refuses a smaller size than
     * ABI 1.0's. */
    uint32_t struct_size;
    uint32_t reserved0;

    /* The plugin manifest, UTF-8 JSON (see docs/manifest.md and the schema in
     * Sources/ManifestCheck/Resources/manifest.schema.json). Static lifetime.
     *
     * Result schema (optional per-skill member "output_schema", a draft 2020-12 JSON Schema whose root is
     * an object schema; an optional field, so the ABI stays 1.x): every result of the skill conforms to it.
     * MCP serves it as the tool's outputSchema; a result that does not conform becomes an error there.
     *
     * Sandbox capabilities (optional member "capabilities", plugin level and optionally per skill, a
     * skill's a subset of its plugin's; an optional field, so the ABI stays 1.x). The host runs the plugin
     * in a worker that can touch only what is declared here (docs/isolation.md, "Sandbox"):
     *
     *   "capabilities": {
     *     "filesystem": [
     *       {"root": "data", "access": "read-write"},                        the data folder (always rw)
     *       {"root": "config", "key": "calendar_file", "access": "read-write"}, path in config.<key>
     *       {"root": "home", "path": "Documents", "access": "read"}           ~/Documents
     *     ],
     *     "network": "none",          or "any", or {"tcp_connect": [443, 8080]}
     *     "processes": false,         true: may start child processes
     *     "env": ["GITHUB_TOKEN"]     host variables asked for; passed only once the user grants env:NAME
     *   }
     *
     * root: "data" | "config" (the string in the plugin's registry config.<key>; "~/" = home) | "home"
     * ("path" relative, no ".."). access: "read" | "read-write". Absent = data folder only, no network,
     * no processes, no host variables. What is not declared fails inside the plugin with EACCES/EPERM:
     * report it as SKILL_STATUS_PERMISSION_DENIED with a message saying what was tried, and the host tells
     * the user which capability to declare or grant ('skillhost grant ID CAPABILITY').
     *
     * In a worker, HOME and TMPDIR are the data folder (and <data>/tmp), SKILLHOST_USER_HOME is the user's
     * home (expand "~/" in configured paths with it), stdin is /dev/null, stdout and stderr go to a pipe the
     * host reads (shown with --verbose only, sanitized): never a terminal. Constructors and
     * skill_plugin_entry also run in a sandbox when the host only reads the manifest (the scanner: no file
     * can be read but the plugin's own, none written, no network): do no I/O there. */
    const char *manifest_json;
    size_t manifest_json_length;

    /* Runs one skill.
     *  plugin        this descriptor.
     *  skill_id      normalized skill id from the manifest, NUL-terminated.
     *  arguments     UTF-8 JSON object, `arguments_length` bytes, already validated by the host against the
     *                skill's `parameters` schema. Host-owned; valid during the call.
     *  context       the call context; host-owned; valid during the call.
     *  result        zero-filled by the host (struct_size set); the plugin fills status/json/plugin_data.
     * Returns the same status it stores in result->status. Must not unwind; must not exit the process.
     * Several invokes may run at once on different threads when the manifest sets "thread_safe": true;
     * otherwise the host serializes calls into this plugin.
     * [any-thread] [blocking-ok] */
    skill_status (*invoke)(const struct skill_plugin_descriptor *plugin, const char *skill_id,
                           const char *arguments, size_t arguments_length, const skill_call_context *context,
                           skill_result *result);

    /* Releases what invoke put in `result` (json and plugin_data). Called exactly once per invoke,
     * after the host has copied the result, also for failed calls. Must accept a result whose json is NULL.
     * [any-thread] */
    void (*free_result)(const struct skill_plugin_descriptor *plugin, skill_result *result);

    /* New fields are appended here. */
} skill_plugin_descriptor;

/* ------------------------------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------------------------------ */

/* The only symbol a plugin exports (C linkage, default visibility).
 *  host_abi_major, host_abi_minor  the ABI the host implements.
 *  host                            the host API table; static lifetime; the plugin may keep the pointer.
 * Returns the plugin's descriptor (static lifetime; the caller must not free it), or NULL when the plugin
 * cannot work with this host (e.g. another major version). May be called more than once; must return the
 * same descriptor each time. Must not call back into the host except through `host->log`.
 * [load-thread] */
typedef const skill_plugin_descriptor *(*skill_plugin_entry_fn)(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                                const skill_host_api *host);

/* Declaration for plugins written in C. Define it with SKILL_EXPORT so it is visible even when the plugin
 * is compiled with -fvisibility=hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define SKILL_EXPORT __attribute__((visibility("default")))
#else
#define SKILL_EXPORT
#endif

/* Hidden from Swift (which defines the symbol with @_cdecl through SkillSDK's export line). */
#if !defined(__swift__)
SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host);
#endif

#ifdef __cplusplus
}
#endif

#endif /* SKILL_ABI_H */
