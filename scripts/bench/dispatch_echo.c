/*
 * dispatch_echo.c — the trivial plugin scripts/bench-dispatch.sh measures dispatch with: one skill,
 * bench.echo, that returns its arguments unchanged. Nothing else, so the numbers are the host's cost.
 */
#include "skill_abi.h"

#include <stdlib.h>
#include <string.h>

static const char manifest[] =
    "{\"id\":\"bench\",\"name\":\"Bench\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"Returns its arguments; used to measure dispatch.\",\"thread_safe\":true,\"skills\":["
    "{\"id\":\"bench.echo\",\"title\":\"Echo\",\"description\":\"Returns its arguments unchanged.\","
    "\"parameters\":{\"type\":\"object\"},\"permission\":\"read\",\"timeout\":5,\"idempotent\":true}]}";

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin, (void)skill_id, (void)context;
    char *copy = malloc(arguments_length + 1);
    memcpy(copy, arguments, arguments_length);
    copy[arguments_length] = 0;
    result->status = SKILL_STATUS_OK;
    result->json = copy;
    result->json_length = arguments_length;
    result->plugin_data = copy;
    return SKILL_STATUS_OK;
}

static void free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin;
    free(result->plugin_data);
}

static const skill_plugin_descriptor descriptor = {
    SKILL_ABI_MAGIC, SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, sizeof(skill_plugin_descriptor), 0,
    manifest, sizeof manifest - 1, invoke, free_result,
};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t major, uint32_t minor,
                                                               const skill_host_api *host) {
    (void)minor, (void)host;
    return major == SKILL_ABI_VERSION_MAJOR ? &descriptor : NULL;
}
