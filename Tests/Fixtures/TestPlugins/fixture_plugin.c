/*
 * fixture_plugin.c — a small C plugin for the host's tests (Tests/SkillHostCoreTests), compiled by the tests
 * with `cc -shared -fPIC` into a temporary folder, never installed.
 *
 * Provides (skill ids are PLUGIN_ID "." name):
 *   echo     (read)       returns {"echo": <arguments>, "call_id": "...", "session_id": "..."}
 *   note     (write)      writes arguments.text into data_dir/note.txt, returns {"written": N, "path": "..."}
 *   fail     (read)       fails with {"message": "the fixture always fails", "remedy": "..."}
 *   slow     (read)       polls is_cancelled until it is set or the deadline passes
 *   context  (read)       context_set("last", arguments); returns what context_get("last") held before
 *   config   (read)       returns the configuration object
 *   badjson  (read)       returns bytes that are not JSON
 *
 * Variants, chosen with -D when compiling (each test builds the one it needs):
 *   PLUGIN_ID="\"name\""      plugin id (default "fixture")
 *   MANIFEST_HEADER="\"/x.h\"" use the manifest of this header (`fixture_manifest_text[]`, written by the test)
 *                             instead of the built-in one: at compile time, since a plugin being scanned
 *                             may read no file
 *   DESCRIPTOR_MAGIC=N        descriptor magic (default SKILL_ABI_MAGIC)
 *   DESCRIPTOR_MAJOR=N        descriptor abi_major (default SKILL_ABI_VERSION_MAJOR)
 *   DESCRIPTOR_SIZE=N         descriptor struct_size (default sizeof)
 *   CRASH_ON_LOAD / HANG_ON_LOAD / EXIT_ON_LOAD / PRINT_ON_LOAD   misbehave in a constructor
 *   NO_ENTRY                  do not export skill_plugin_entry
 *   NULL_DESCRIPTOR           the entry returns NULL
 *   OUTPUT_SCHEMAS            echo declares an output_schema its results conform to; config one that its
 *                             results never meet (requires a member "never_there")
 */
#include "skill_abi.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef MANIFEST_HEADER
#include MANIFEST_HEADER
#endif

#ifndef PLUGIN_ID
#define PLUGIN_ID "fixture"
#endif
#ifndef DESCRIPTOR_MAGIC
#define DESCRIPTOR_MAGIC SKILL_ABI_MAGIC
#endif
#ifndef DESCRIPTOR_MAJOR
#define DESCRIPTOR_MAJOR SKILL_ABI_VERSION_MAJOR
#endif
#ifndef DESCRIPTOR_SIZE
#define DESCRIPTOR_SIZE sizeof(skill_plugin_descriptor)
#endif

#define OBJECT_SCHEMA "{\"type\":\"object\",\"additionalProperties\":true}"
#define SKILL_WITH(name, permission, extra, more) \
    "{\"id\":\"" PLUGIN_ID "." name "\",\"title\":\"" name "\",\"description\":\"Fixture skill " name ".\"," \
    "\"parameters\":" extra ",\"permission\":\"" permission "\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"" name " something\"]" more "}"
#define SKILL(name, permission, extra) SKILL_WITH(name, permission, extra, "")

#ifdef OUTPUT_SCHEMAS
#define ECHO_OUTPUT ",\"output_schema\":{\"type\":\"object\",\"properties\":{\"echo\":{\"type\":\"object\"}," \
    "\"call_id\":{\"type\":\"string\"}},\"required\":[\"echo\",\"call_id\"]}"
#define CONFIG_OUTPUT ",\"output_schema\":{\"type\":\"object\",\"properties\":{\"never_there\":{\"type\":\"string\"}}," \
    "\"required\":[\"never_there\"]}"
#else
#define ECHO_OUTPUT ""
#define CONFIG_OUTPUT ""
#endif

static const char builtin_manifest[] =
    "{\"id\":\"" PLUGIN_ID "\",\"name\":\"Fixture\",\"version\":\"1.2.3\",\"abi_version\":\"1.0\","
    "\"description\":\"Test fixture plugin.\",\"thread_safe\":false,\"skills\":["
    SKILL_WITH("echo", "read", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},"
                               "\"count\":{\"type\":\"integer\",\"minimum\":0}},\"additionalProperties\":true}",
               ECHO_OUTPUT) ","
    SKILL("note", "write", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                           "\"required\":[\"text\"],\"additionalProperties\":false}") ","
    SKILL("fail", "read", OBJECT_SCHEMA) ","
    SKILL("slow", "read", OBJECT_SCHEMA) ","
    SKILL("context", "read", OBJECT_SCHEMA) ","
    SKILL_WITH("config", "read", OBJECT_SCHEMA, CONFIG_OUTPUT) ","
    SKILL("badjson", "read", OBJECT_SCHEMA)
    "]}";

#ifdef CRASH_ON_LOAD
__attribute__((constructor)) static void crash_on_load(void) {
    volatile int *nowhere = NULL;
    *nowhere = 1; /* SIGSEGV */
}
#endif
#ifdef HANG_ON_LOAD
__attribute__((constructor)) static void hang_on_load(void) { for (;;) pause(); }
#endif
#ifdef EXIT_ON_LOAD
__attribute__((constructor)) static void exit_on_load(void) { _exit(3); }
#endif
#ifdef PRINT_ON_LOAD
__attribute__((constructor)) static void print_on_load(void) {
    printf("garbage from a constructor {\"status\":\"ok\"\n");
    fflush(stdout);
}
#endif

static char *copy_text(const char *text, size_t length) {
    char *copy = malloc(length + 1);
    memcpy(copy, text, length);
    copy[length] = 0;
    return copy;
}

static skill_status finish(skill_result *result, skill_status status, char *json) {
    result->status = status;
    result->json = json;
    result->json_length = json ? strlen(json) : 0;
    return status;
}

static const char *skill_name(const char *skill_id) {
    const char *prefix = PLUGIN_ID ".";
    size_t length = strlen(prefix);
    return strncmp(skill_id, prefix, length) == 0 ? skill_id + length : "";
}

static skill_status fixture_invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                                   size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin;
    const char *name = skill_name(skill_id);
    char *args = copy_text(arguments, arguments_length);
    char *json = NULL;
    skill_status status = SKILL_STATUS_OK;
    if (strcmp(name, "echo") == 0) {
        size_t size = strlen(args) + strlen(context->call_id) + strlen(context->session_id) + 64;
        json = malloc(size);
        snprintf(json, size, "{\"echo\":%s,\"call_id\":\"%s\",\"session_id\":\"%s\"}", args, context->call_id,
                 context->session_id);
    } else if (strcmp(name, "note") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/note.txt", context->data_dir);
        FILE *file = fopen(path, "w");
        if (!file) {
            json = copy_text("{\"message\":\"cannot open the note file\"}", 39);
            status = SKILL_STATUS_FAILED;
        } else {
            fputs(args, file);
            fclose(file);
            json = malloc(strlen(path) + 64);
            sprintf(json, "{\"written\":%zu,\"path\":\"%s\"}", arguments_length, path);
        }
    } else if (strcmp(name, "fail") == 0) {
        const char *text = "{\"message\":\"the fixture always fails\",\"field\":\"/x\",\"remedy\":\"do not call fail\"}";
        json = copy_text(text, strlen(text));
        status = SKILL_STATUS_FAILED;
    } else if (strcmp(name, "slow") == 0) {
        for (;;) {
            if (context->is_cancelled(context)) {
                status = SKILL_STATUS_CANCELLED;
                break;
            }
            usleep(2000);
        }
    } else if (strcmp(name, "context") == 0) {
        const char *previous = NULL;
        size_t previous_length = 0;
        int found = context->context_get(context, "last", &previous, &previous_length);
        json = found ? copy_text(previous, previous_length) : copy_text("null", 4);
        context->context_set(context, "last", arguments, arguments_length);
        context->log(context, SKILL_LOG_INFO, "context stored", 14);
    } else if (strcmp(name, "config") == 0) {
        json = copy_text(context->config_json, context->config_json_length);
    } else if (strcmp(name, "badjson") == 0) {
        json = copy_text("{not json", 9);
    } else {
        json = copy_text("{\"message\":\"no such skill\"}", 27);
        status = SKILL_STATUS_NOT_FOUND;
    }
    free(args);
    return finish(result, status, json);
}

static void fixture_free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin;
    free((void *)result->json);
    result->json = NULL;
}

static skill_plugin_descriptor descriptor = {
    DESCRIPTOR_MAGIC, DESCRIPTOR_MAJOR, SKILL_ABI_VERSION_MINOR, DESCRIPTOR_SIZE, 0,
    builtin_manifest, sizeof builtin_manifest - 1, fixture_invoke, fixture_free_result,
};

#ifndef NO_ENTRY
SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host) {
    (void)host_abi_minor;
#ifdef NULL_DESCRIPTOR
    return NULL;
#endif
    if (host_abi_major != SKILL_ABI_VERSION_MAJOR) return NULL;
    host->log(host, SKILL_LOG_DEBUG, "fixture loaded", 14);
#ifdef MANIFEST_HEADER
    descriptor.manifest_json = fixture_manifest_text;
    descriptor.manifest_json_length = sizeof fixture_manifest_text - 1;
#endif
    return &descriptor;
}
#else
SKILL_EXPORT int not_the_entry_point(void) { return 0; }
#endif
