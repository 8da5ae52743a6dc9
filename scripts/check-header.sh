#!/bin/sh
# Compiles the plugin ABI header (and skill_json.h beside it) the strict way its users might: pedantic C99 and C11 (gcc), C++11 and
# C++17 (g++), each with every warning an error; and abi_layout_checks.c, which pins the v1 struct sizes.
# Exit status 0 means the header is clean. Usage: scripts/check-header.sh
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
include="$root/Sources/CSkillABI/include"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# A translation unit that uses every type and macro, so unused-declaration problems show too.
cat > "$scratch/use_header.c" <<'CODE'
#include "skill_abi.h"
#include "skill_abi.h" /* the include guard works */

static const char manifest[] = "{}";

static skill_status use_invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                               size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin; (void)skill_id; (void)arguments; (void)arguments_length; (void)context;
    result->status = SKILL_STATUS_OK;
    return SKILL_STATUS_OK;
}

static void use_free(const skill_plugin_descriptor *plugin, skill_result *result) { (void)plugin; (void)result; }

static const skill_plugin_descriptor descriptor = {
    SKILL_ABI_MAGIC, SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, sizeof(skill_plugin_descriptor), 0,
    manifest, sizeof manifest - 1, use_invoke, use_free};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host) {
    skill_plugin_entry_fn self = skill_plugin_entry;
    (void)self; (void)host_abi_minor; (void)host;
    return host_abi_major == SKILL_ABI_VERSION_MAJOR ? &descriptor : 0;
}
CODE
cp "$scratch/use_header.c" "$scratch/use_header.cpp"

status=0
check() {
    label=$1
    shift
    if "$@" 2> "$scratch/errors"; then
        echo "ok    $label"
    else
        echo "FAIL  $label"
        sed 's/^/      /' "$scratch/errors"
        status=1
    fi
}
strict="-pedantic -Werror -Wall -Wextra"
check "C99   skill_abi.h" gcc -std=c99 $strict -I "$include" -c "$scratch/use_header.c" -o "$scratch/c99.o"
check "C11   skill_abi.h" gcc -std=c11 $strict -I "$include" -c "$scratch/use_header.c" -o "$scratch/c11.o"
check "C++11 skill_abi.h" g++ -std=c++11 $strict -I "$include" -c "$scratch/use_header.cpp" -o "$scratch/cxx11.o"
check "C++17 skill_abi.h" g++ -std=c++17 $strict -I "$include" -c "$scratch/use_header.cpp" -o "$scratch/cxx17.o"
check "C99   abi_layout_checks.c" gcc -std=c99 $strict -I "$include" \
    -c "$root/Sources/CSkillABI/abi_layout_checks.c" -o "$scratch/layout.o"
check "C11   abi_layout_checks.c" gcc -std=c11 $strict -I "$include" \
    -c "$root/Sources/CSkillABI/abi_layout_checks.c" -o "$scratch/layout11.o"
# skill_json.h, the C authors' JSON helper: the same four dialects, through a unit that uses every function.
cat > "$scratch/use_json.c" <<'CODE'
#include "skill_abi.h"
#include "skill_json.h"
#include "skill_json.h" /* the include guard works */

int use_json(const char *arguments, size_t length, skill_result *result);
int use_json(const char *arguments, size_t length, skill_result *result) {
    char text[32], type;
    long long integer;
    double number;
    int flag;
    skill_json_writer out;
    skill_json_writer_init(&out);
    skill_json_begin_object(&out);
    if (skill_json_get_string(arguments, length, "/s", text, sizeof text, NULL) == SKILL_JSON_OK)
        skill_json_member_string(&out, "s", text);
    if (skill_json_get_integer(arguments, length, "/i", &integer) == SKILL_JSON_OK)
        skill_json_member_integer(&out, "i", integer);
    if (skill_json_get_number(arguments, length, "/n", &number) == SKILL_JSON_OK)
        skill_json_member_number(&out, "n", number);
    if (skill_json_get_bool(arguments, length, "/b", &flag) == SKILL_JSON_OK) skill_json_member_bool(&out, "b", flag);
    if (skill_json_get_type(arguments, length, "/t", &type) == SKILL_JSON_OK) skill_json_member_string(&out, "t", "x");
    skill_json_key(&out, "a");
    skill_json_begin_array(&out);
    skill_json_string_n(&out, "ab", 2);
    skill_json_null(&out);
    skill_json_end_array(&out);
    skill_json_end_object(&out);
    if (!skill_json_writer_ok(&out)) skill_json_error(&out, "failed", NULL, NULL);
    skill_json_finish_result(&out, SKILL_STATUS_OK, result);
    skill_json_free_result(NULL, result);
    skill_json_writer_dispose(&out);
    return 0;
}
CODE
cp "$scratch/use_json.c" "$scratch/use_json.cpp"
check "C99   skill_json.h" gcc -std=c99 $strict -I "$include" -c "$scratch/use_json.c" -o "$scratch/json99.o"
check "C11   skill_json.h" gcc -std=c11 $strict -I "$include" -c "$scratch/use_json.c" -o "$scratch/json11.o"
check "C++11 skill_json.h" g++ -std=c++11 $strict -I "$include" -c "$scratch/use_json.cpp" -o "$scratch/jsoncxx11.o"
check "C++17 skill_json.h" g++ -std=c++17 $strict -I "$include" -c "$scratch/use_json.cpp" -o "$scratch/jsoncxx17.o"
exit $status
