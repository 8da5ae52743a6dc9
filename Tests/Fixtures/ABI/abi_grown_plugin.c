/*
 * A plugin that follows skill_abi.h's "Both directions" rule, compiled by ABICompatibilityTests against this
 * header (1.0) and against a grown copy (1.1: every struct has a field appended, `added_in_1_1`).
 * One skill, "grown.sizes", answers with the struct sizes it saw, so the test can tell which header built it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skill_abi.h"

/* SKILL_TEST_MIN_HOST_ABI="1.1" declares that the plugin needs a 1.1 host (manifest "min_host_abi"). */
#ifdef SKILL_TEST_MIN_HOST_ABI
#define MIN_HOST_ABI_MEMBER "\"min_host_abi\":\"" SKILL_TEST_MIN_HOST_ABI "\","
#else
#define MIN_HOST_ABI_MEMBER ""
#endif

static const char manifest[] =
    "{\"id\":\"grown\",\"name\":\"Grown\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\"," MIN_HOST_ABI_MEMBER
    "\"description\":\"Reports the ABI struct sizes it sees.\",\"skills\":[{\"id\":\"grown.sizes\","
    "\"title\":\"Sizes\",\"description\":\"Reports struct sizes.\",\"permission\":\"read\",\"idempotent\":true,"
    "\"parameters\":{\"type\":\"object\",\"additionalProperties\":false}}]}";

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin; (void)arguments; (void)arguments_length;
    /* Accept any 1.x host: the 1.0 size is the floor, never this header's sizeof. */
    if (result == NULL || result->struct_size < SKILL_RESULT_SIZE_1_0) return SKILL_STATUS_INTERNAL;
    if (context == NULL || context->struct_size < SKILL_CALL_CONTEXT_SIZE_1_0) return SKILL_STATUS_INTERNAL;
    if (strcmp(skill_id, "grown.sizes") != 0) return SKILL_STATUS_NOT_FOUND;
    int wrote_grown_field = 0;
#ifdef SKILL_TEST_GROWN_HEADER
    /* A 1.1 field: written only when the host's struct has room for it. */
    if (SKILL_STRUCT_HAS(result, skill_result, added_in_1_1)) {
        result->added_in_1_1 = 11;
        wrote_grown_field = 1;
    }
#endif
    char *json = malloc(160);
    if (json == NULL) return SKILL_STATUS_INTERNAL;
    snprintf(json, 160, "{\"minor\":%d,\"result_size\":%u,\"context_size\":%u,\"wrote_grown_field\":%s}",
             SKILL_ABI_VERSION_MINOR, (unsigned)result->struct_size, (unsigned)context->struct_size,
             wrote_grown_field ? "true" : "false");
    result->status = SKILL_STATUS_OK;
    result->json = json;
    result->json_length = strlen(json);
    return SKILL_STATUS_OK;
}

static void free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin;
    free((void *)result->json);
    result->json = NULL;
}

static const skill_plugin_descriptor descriptor = {
    .magic = SKILL_ABI_MAGIC,
    .abi_major = SKILL_ABI_VERSION_MAJOR,
    .abi_minor = SKILL_ABI_VERSION_MINOR,
    .struct_size = sizeof(skill_plugin_descriptor),
    .manifest_json = manifest,
    .manifest_json_length = sizeof manifest - 1,
    .invoke = invoke,
    .free_result = free_result,
};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host) {
    (void)host_abi_minor; (void)host;
    return host_abi_major == SKILL_ABI_VERSION_MAJOR ? &descriptor : NULL;
}
