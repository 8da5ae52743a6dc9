/* ABI 1.0 as released, written down as data: every field's offset, size and type, every constant.
 * ABICompatibilityTests compiles this file against Sources/CSkillABI/include/skill_abi.h; it fails to compile
 * when an edit to the header would break plugins already built (a field moved, resized or retyped, a
 * constant renumbered). Fields appended after the 1.0 ones (skill_abi.h, "New fields are appended here")
 * keep it compiling; never edit the rows below to make a changed header pass. x86_64 / aarch64 LP64. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "skill_abi.h"

/* The 1.0 signatures of the function-pointer fields. */
typedef void (*host_log_1_0)(const struct skill_host_api *, int32_t, const char *, size_t);
typedef const void *(*host_get_extension_1_0)(const struct skill_host_api *, const char *);
typedef int32_t (*context_is_cancelled_1_0)(const struct skill_call_context *);
typedef void (*context_log_1_0)(const struct skill_call_context *, int32_t, const char *, size_t);
typedef int32_t (*context_get_1_0)(const struct skill_call_context *, const char *, const char **, size_t *);
typedef int32_t (*context_set_1_0)(const struct skill_call_context *, const char *, const char *, size_t);
typedef int32_t (*descriptor_invoke_1_0)(const struct skill_plugin_descriptor *, const char *, const char *, size_t,
                                         const skill_call_context *, skill_result *);
typedef void (*descriptor_free_result_1_0)(const struct skill_plugin_descriptor *, skill_result *);
typedef const skill_plugin_descriptor *(*entry_1_0)(uint32_t, uint32_t, const skill_host_api *);

#define FIELD(type, field, offset, size, field_type)                                                          \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved (ABI 1.0: offset " #offset ")"); \
    _Static_assert(sizeof(((type *)0)->field) == (size), #type "." #field " changed size (ABI 1.0: " #size ")"); \
    _Static_assert(__builtin_types_compatible_p(__typeof__(((type *)0)->field), field_type),                     \
                   #type "." #field " changed type (ABI 1.0: " #field_type ")");

FIELD(skill_host_api, struct_size, 0, 4, uint32_t)
FIELD(skill_host_api, abi_major, 4, 4, uint32_t)
FIELD(skill_host_api, abi_minor, 8, 4, uint32_t)
FIELD(skill_host_api, reserved0, 12, 4, uint32_t)
FIELD(skill_host_api, host_data, 16, 8, void *)
FIELD(skill_host_api, log, 24, 8, host_log_1_0)
FIELD(skill_host_api, get_extension, 32, 8, host_get_extension_1_0)
FIELD(skill_call_context, struct_size, 0, 4, uint32_t)
FIELD(skill_call_context, reserved0, 4, 4, uint32_t)
FIELD(skill_call_context, call_id, 8, 8, const char *)
FIELD(skill_call_context, session_id, 16, 8, const char *)
FIELD(skill_call_context, idempotency_key, 24, 8, const char *)
FIELD(skill_call_context, deadline_unix_ms, 32, 8, int64_t)
FIELD(skill_call_context, config_json, 40, 8, const char *)
FIELD(skill_call_context, config_json_length, 48, 8, size_t)
FIELD(skill_call_context, data_dir, 56, 8, const char *)
FIELD(skill_call_context, host_data, 64, 8, void *)
FIELD(skill_call_context, is_cancelled, 72, 8, context_is_cancelled_1_0)
FIELD(skill_call_context, log, 80, 8, context_log_1_0)
FIELD(skill_call_context, context_get, 88, 8, context_get_1_0)
FIELD(skill_call_context, context_set, 96, 8, context_set_1_0)
FIELD(skill_result, struct_size, 0, 4, uint32_t)
FIELD(skill_result, status, 4, 4, int32_t)
FIELD(skill_result, json, 8, 8, const char *)
FIELD(skill_result, json_length, 16, 8, size_t)
FIELD(skill_result, plugin_data, 24, 8, void *)
FIELD(skill_plugin_descriptor, magic, 0, 4, uint32_t)
FIELD(skill_plugin_descriptor, abi_major, 4, 2, uint16_t)
FIELD(skill_plugin_descriptor, abi_minor, 6, 2, uint16_t)
FIELD(skill_plugin_descriptor, struct_size, 8, 4, uint32_t)
FIELD(skill_plugin_descriptor, reserved0, 12, 4, uint32_t)
FIELD(skill_plugin_descriptor, manifest_json, 16, 8, const char *)
FIELD(skill_plugin_descriptor, manifest_json_length, 24, 8, size_t)
FIELD(skill_plugin_descriptor, invoke, 32, 8, descriptor_invoke_1_0)
FIELD(skill_plugin_descriptor, free_result, 40, 8, descriptor_free_result_1_0)

_Static_assert(SKILL_ABI_MAGIC == 0x314C4B53u, "SKILL_ABI_MAGIC changed");
_Static_assert(SKILL_ABI_VERSION_MAJOR == 1, "SKILL_ABI_VERSION_MAJOR changed: a new major is a new ABI");
_Static_assert(SKILL_HOST_API_SIZE_1_0 == 40u && SKILL_CALL_CONTEXT_SIZE_1_0 == 104u, "a 1.0 size changed");
_Static_assert(SKILL_RESULT_SIZE_1_0 == 32u && SKILL_PLUGIN_DESCRIPTOR_SIZE_1_0 == 48u, "a 1.0 size changed");
_Static_assert(sizeof(skill_status) == 4, "skill_status changed size");
_Static_assert(SKILL_STATUS_OK == 0 && SKILL_STATUS_INVALID_ARGUMENTS == 1 && SKILL_STATUS_FAILED == 2 &&
               SKILL_STATUS_NOT_FOUND == 3 && SKILL_STATUS_CANCELLED == 4 && SKILL_STATUS_TIMEOUT == 5 &&
               SKILL_STATUS_PERMISSION_DENIED == 6 && SKILL_STATUS_INTERNAL == 7, "a status code was renumbered");
_Static_assert(SKILL_LOG_DEBUG == 0 && SKILL_LOG_INFO == 1 && SKILL_LOG_WARNING == 2 && SKILL_LOG_ERROR == 3,
               "a log level was renumbered");
_Static_assert(__builtin_types_compatible_p(skill_plugin_entry_fn, entry_1_0), "skill_plugin_entry_fn changed");

/* The entry point's name, checked when the test runs this program (strings do not compare statically). */
int main(void) { return strcmp(SKILL_PLUGIN_ENTRY_SYMBOL, "skill_plugin_entry") == 0 ? 0 : 1; }
