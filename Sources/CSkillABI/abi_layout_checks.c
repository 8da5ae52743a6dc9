/*
 * Pins the layout of ABI v1 on LP64 Linux. A change here is an ABI break: if one of these fails, a
 * field was inserted or resized instead of appended. Also compiled pedantically as C99 by
 * scripts/check-header.sh.
 */
#include "skill_abi.h"

#define SKILL_STATIC_ASSERT(cond, name) typedef char skill_static_assert_##name[(cond) ? 1 : -1]

SKILL_STATIC_ASSERT(sizeof(void *) == 8, lp64_only);
SKILL_STATIC_ASSERT(sizeof(skill_plugin_descriptor) == 48, descriptor_size_v1_0);
SKILL_STATIC_ASSERT(offsetof(skill_plugin_descriptor, manifest_json) == 16, descriptor_manifest_offset);
SKILL_STATIC_ASSERT(offsetof(skill_plugin_descriptor, invoke) == 32, descriptor_invoke_offset);
SKILL_STATIC_ASSERT(sizeof(skill_host_api) == 40, host_api_size_v1_0);
SKILL_STATIC_ASSERT(sizeof(skill_call_context) == 104, call_context_size_v1_0);
SKILL_STATIC_ASSERT(sizeof(skill_result) == 32, result_size_v1_0);
/* The 1.0 sizes readers compare with; they never change, whatever a later 1.x header appends. */
SKILL_STATIC_ASSERT(SKILL_PLUGIN_DESCRIPTOR_SIZE_1_0 == offsetof(skill_plugin_descriptor, free_result) + sizeof(void *), descriptor_size_1_0_macro);
SKILL_STATIC_ASSERT(SKILL_HOST_API_SIZE_1_0 == sizeof(skill_host_api), host_api_size_1_0_macro);
SKILL_STATIC_ASSERT(SKILL_CALL_CONTEXT_SIZE_1_0 == sizeof(skill_call_context), call_context_size_1_0_macro);
SKILL_STATIC_ASSERT(SKILL_RESULT_SIZE_1_0 == offsetof(skill_result, plugin_data) + sizeof(void *), result_size_1_0_macro);

/* Exported so the host can compare its own view of the sizes at run time in tests. */
unsigned skill_abi_descriptor_size_v1(void) { return (unsigned)sizeof(skill_plugin_descriptor); }
