/*
 * ctor_hang.c — a test plugin whose library constructor never returns, so loading it hangs the process
 * that loads it. Built by the isolation tests into a temporary folder; never installed. The host must
 * give up on the worker after its startup timeout and kill it.
 */
#include "skill_abi.h"

#include <unistd.h>

__attribute__((constructor)) static void hang_on_load(void) {
    for (;;) pause();
}

static const char manifest[] =
    "{\"id\":\"ctor_hang\",\"name\":\"Constructor hang\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"Hangs while loading.\",\"skills\":[{\"id\":\"ctor_hang.never\",\"title\":\"never\","
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
