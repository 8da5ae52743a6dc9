/*
 * catalog_plugin.c — a small C plugin that scripts/bench.sh compiles 200 times with distinct ids to
 * measure `skillhost list` on a large catalog: PLUGIN_ID (a C string, e.g. "p001") names the plugin and
 * prefixes its three skills, each with a small parameter schema.
 */
#include "skill_abi.h"

#include <stddef.h>

#ifndef PLUGIN_ID
#define PLUGIN_ID "p000"
#endif

#define SKILL(name, title)                                                                                    \
    "{\"id\":\"" PLUGIN_ID "." name "\",\"title\":\"" title "\",\"description\":\"A benchmark skill.\","     \
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"maxLength\":100},"  \
    "\"count\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"text\"],\"additionalProperties\":false}," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true}"

static const char manifest[] =
    "{\"id\":\"" PLUGIN_ID "\",\"name\":\"Bench " PLUGIN_ID "\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"One of many plugins used to measure the catalog.\",\"thread_safe\":true,\"skills\":["
    SKILL("echo", "Echo") "," SKILL("count", "Count") "," SKILL("upper", "Upper") "]}";

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin, (void)skill_id, (void)context;
    result->status = SKILL_STATUS_OK;
    result->json = arguments;
    result->json_length = arguments_length;
    result->plugin_data = NULL;
    return SKILL_STATUS_OK;
}

static void free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin, (void)result;
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
