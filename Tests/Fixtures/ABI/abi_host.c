/*
 * A minimal host in C, compiled by ABICompatibilityTests against this header (1.0) or a grown copy (1.1), to
 * run plugins built against the other one. Usage: abi_host PLUGIN.so SKILL_ID ARGUMENTS_JSON
 * Prints the result JSON on stdout and exits with the skill's status (0 OK); 100+ for a refused load.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "skill_abi.h"

static void host_log(const skill_host_api *host, int32_t level, const char *message, size_t length) {
    (void)host; (void)level;
    fprintf(stderr, "log: %.*s\n", (int)length, message);
}
static const void *host_get_extension(const skill_host_api *host, const char *extension_id) {
    (void)host; (void)extension_id;
    return NULL;
}
static int32_t not_cancelled(const skill_call_context *context) { (void)context; return 0; }
static void context_log(const skill_call_context *context, int32_t level, const char *message, size_t length) {
    (void)context; (void)level;
    fprintf(stderr, "log: %.*s\n", (int)length, message);
}
static int32_t context_get(const skill_call_context *context, const char *key, const char **value, size_t *length) {
    (void)context; (void)key; *value = NULL; *length = 0;
    return 0;
}
static skill_status context_set(const skill_call_context *context, const char *key, const char *value, size_t length) {
    (void)context; (void)key; (void)value; (void)length;
    return SKILL_STATUS_OK;
}

int main(int argc, char **argv) {
    if (argc != 4) return 100;
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) { fprintf(stderr, "%s\n", dlerror()); return 101; }
    skill_plugin_entry_fn entry = (skill_plugin_entry_fn)dlsym(library, SKILL_PLUGIN_ENTRY_SYMBOL);
    if (entry == NULL) return 102;
    static skill_host_api host;
    memset(&host, 0, sizeof host);
    host.struct_size = sizeof host;
    host.abi_major = SKILL_ABI_VERSION_MAJOR;
    host.abi_minor = SKILL_ABI_VERSION_MINOR;
    host.log = host_log;
    host.get_extension = host_get_extension;
    const skill_plugin_descriptor *plugin = entry(SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, &host);
    if (plugin == NULL || plugin->magic != SKILL_ABI_MAGIC || plugin->abi_major != SKILL_ABI_VERSION_MAJOR) return 103;
    /* Any 1.x plugin: the 1.0 size is the floor, never this header's sizeof. */
    if (plugin->struct_size < SKILL_PLUGIN_DESCRIPTOR_SIZE_1_0) return 104;

    skill_call_context context;
    memset(&context, 0, sizeof context);
    context.struct_size = sizeof context;
    context.call_id = "call-1";
    context.session_id = "session-1";
    context.idempotency_key = "";
    context.deadline_unix_ms = (int64_t)time(NULL) * 1000 + 30000;
    context.config_json = "{}";
    context.config_json_length = 2;
    context.data_dir = "/tmp";
    context.is_cancelled = not_cancelled;
    context.log = context_log;
    context.context_get = context_get;
    context.context_set = context_set;

    skill_result result;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    skill_status status = plugin->invoke(plugin, argv[2], argv[3], strlen(argv[3]), &context, &result);
    if (result.json != NULL) printf("%.*s\n", (int)result.json_length, result.json);
    plugin->free_result(plugin, &result);
    return (int)status;
}
