/*
 * ctor_abort.c — a test plugin whose library constructor aborts, so merely loading it kills the process
 * that loads it. Built by the isolation tests into a temporary folder; never installed. The host must
 * survive: only the worker (or scanner) child dies.
 */
#include "skill_abi.h"

#include <stdlib.h>

__attribute__((constructor)) static void explode_on_load(void) { abort(); }

static const char manifest[] =
    "{\"id\":\"ctor_abort\",\"name\":\"Constructor abort\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"Aborts while loading.\",\"skills\":[{\"id\":\"ctor_abort.never\",\"title\":\"never\","
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
