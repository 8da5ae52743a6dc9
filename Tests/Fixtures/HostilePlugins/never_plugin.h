/*
 * never_plugin.h — the manifest, descriptor and entry point shared by the test plugins that break while
 * loading (ctor_abort.c, ctor_hang.c): one skill, "<id>.never", that never gets to run. A plugin defines
 * NEVER_PLUGIN_ID, NEVER_PLUGIN_NAME and NEVER_PLUGIN_DESCRIPTION (string literals), then includes this.
 */
#ifndef NEVER_PLUGIN_H
#define NEVER_PLUGIN_H

#include "skill_abi.h"

static const char manifest[] =
    "{\"id\":\"" NEVER_PLUGIN_ID "\",\"name\":\"" NEVER_PLUGIN_NAME "\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"" NEVER_PLUGIN_DESCRIPTION "\",\"skills\":[{\"id\":\"" NEVER_PLUGIN_ID ".never\",\"title\":\"never\","
    "\"description\":\"Never runs.\",\"parameters\":{\"type\":\"object\"},\"permission\":\"read\",\"idempotent\":true}]}";

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin, (void)skill_id, (void)arguments, (void)arguments_length, (void)context;
    result->status = SKILL_STATUS_OK;
    return SKILL_STATUS_OK;
}

static void free_result(const skill_plugin_descriptor *plugin, skill_result *result) { (void)plugin, (void)result; }

static const skill_plugin_descriptor descriptor = {
    SKILL_ABI_MAGIC, SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, sizeof(skill_plugin_descriptor), 0,
    manifest, sizeof manifest - 1, invoke, free_result,
};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t major, uint32_t minor,
                                                               const skill_host_api *host) {
    (void)major, (void)minor, (void)host;
    return &descriptor;
}

#endif
