/*
 * hostile.c — a test plugin that misbehaves on purpose, one skill per kind of misbehaviour, plus healthy
 * skills to show the host still works afterwards. Built by the isolation tests into a temporary folder
 * (cc -shared -fPIC); never installed.
 *
 * Skills: hostile.ok (echo), hostile.segfault, hostile.abort, hostile.loop (spins forever, ignores
 * cancellation), hostile.hang (blocks forever without using CPU), hostile.huge (a 64 MiB result), hostile.garbage (prints junk on stdout, then answers),
 * hostile.exit (calls exit(7)), hostile.fail (reports SKILL_STATUS_FAILED), hostile.context (increments
 * the session value "counter"), hostile.sleep ({"ms": N}), hostile.pid (the worker's pid),
 * hostile.limits (the rlimits it runs under), hostile.stdin (reads fd 0, where a careless plugin could steal
 * the host's frames), hostile.served (how many calls this process ran before this one: a call that never
 * ran leaves no trace in it).
 */
#include "skill_abi.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define SKILL(name, desc) \
    "{\"id\":\"hostile." name "\",\"title\":\"" name "\",\"description\":\"" desc "\"," \
    "\"parameters\":{\"type\":\"object\"},\"permission\":\"read\",\"timeout\":30,\"idempotent\":true}"

static const char manifest[] =
    "{\"id\":\"hostile\",\"name\":\"Hostile\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"Misbehaves on purpose for the isolation tests.\",\"thread_safe\":false,\"skills\":["
    SKILL("ok", "Echoes its arguments.") ","
    SKILL("segfault", "Dereferences NULL.") ","
    SKILL("abort", "Calls abort().") ","
    SKILL("loop", "Spins forever.") ","
    SKILL("hang", "Sleeps forever without using CPU.") ","
    SKILL("huge", "Returns a 64 MiB result.") ","
    SKILL("garbage", "Writes junk to stdout, then answers.") ","
    SKILL("exit", "Calls exit(7).") ","
    SKILL("fail", "Reports a failure.") ","
    SKILL("context", "Increments the session value counter.") ","
    SKILL("sleep", "Sleeps for ms milliseconds.") ","
    SKILL("pid", "Returns the process id.") ","
    SKILL("limits", "Returns its resource limits.") ","
    SKILL("stdin", "Reads its standard input.") ","
    SKILL("served", "Returns how many calls this process ran before this one.")
    "]}";

/* Calls this process has run (every skill counts). */
static long long calls_served;

static skill_status answer(skill_result *result, skill_status status, char *json) {
    result->status = status;
    result->json = json;
    result->json_length = json ? strlen(json) : 0;
    result->plugin_data = json;
    return status;
}

static char *format(const char *pattern, long long a, long long b, long long c) {
    char *text = malloc(256);
    snprintf(text, 256, pattern, a, b, c);
    return text;
}

static long long limit_of(int resource) {
    struct rlimit limit;
    getrlimit(resource, &limit);
    return limit.rlim_cur == RLIM_INFINITY ? -1 : (long long)limit.rlim_cur;
}

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin;
    const char *name = skill_id + strlen("hostile.");
    long long served_before = calls_served++;
    if (strcmp(name, "served") == 0) return answer(result, SKILL_STATUS_OK, format("{\"served\":%lld}", served_before, 0, 0));
    if (strcmp(name, "ok") == 0) {
        char *json = malloc(arguments_length + 32);
        memcpy(json, "{\"ok\":true,\"echo\":", 18);
        memcpy(json + 18, arguments, arguments_length);
        strcpy(json + 18 + arguments_length, "}");
        return answer(result, SKILL_STATUS_OK, json);
    }
    if (strcmp(name, "segfault") == 0) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    if (strcmp(name, "abort") == 0) abort();
    if (strcmp(name, "loop") == 0) {
        volatile unsigned long spins = 0;
        for (;;) spins++;
    }
    if (strcmp(name, "hang") == 0) {
        for (;;) pause();
    }
    if (strcmp(name, "huge") == 0) {
        size_t size = 64u << 20;
        char *json = malloc(size + 1);
        memset(json, 'a', size);
        json[0] = '"';
        json[size - 1] = '"';
        json[size] = 0;
        return answer(result, SKILL_STATUS_OK, json);
    }
    if (strcmp(name, "garbage") == 0) {
        printf("GARBAGE \x01\x02\x03 not a frame\n");
        fflush(stdout);
        write(1, "\xff\xff\xff\xff more junk", 14);
        return answer(result, SKILL_STATUS_OK, strdup("{\"survived\":true}"));
    }
    if (strcmp(name, "exit") == 0) exit(7);
    if (strcmp(name, "fail") == 0) {
        return answer(result, SKILL_STATUS_FAILED,
                      strdup("{\"message\":\"the disk is full\",\"field\":\"/path\",\"remedy\":\"free some space\"}"));
    }
    if (strcmp(name, "context") == 0) {
        const char *value = NULL;
        size_t length = 0;
        long long counter = 0;
        if (context->context_get(context, "counter", &value, &length)) counter = strtoll(value, NULL, 10);
        char text[32];
        snprintf(text, sizeof text, "%lld", counter + 1);
        context->context_set(context, "counter", text, strlen(text));
        return answer(result, SKILL_STATUS_OK, format("{\"counter\":%lld}", counter + 1, 0, 0));
    }
    if (strcmp(name, "sleep") == 0) {
        const char *ms = strstr(arguments, "\"ms\":");
        long long milliseconds = ms ? strtoll(ms + 5, NULL, 10) : 100;
        struct timespec pause = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
        nanosleep(&pause, NULL);
        return answer(result, SKILL_STATUS_OK, format("{\"slept_ms\":%lld,\"pid\":%lld}", milliseconds, getpid(), 0));
    }
    if (strcmp(name, "pid") == 0) return answer(result, SKILL_STATUS_OK, format("{\"pid\":%lld}", getpid(), 0, 0));
    if (strcmp(name, "limits") == 0) {
        return answer(result, SKILL_STATUS_OK,
                      format("{\"address_space\":%lld,\"cpu_seconds\":%lld,\"open_files\":%lld}", limit_of(RLIMIT_AS),
                             limit_of(RLIMIT_CPU), limit_of(RLIMIT_NOFILE)));
    }
    if (strcmp(name, "stdin") == 0) {
        char buffer[256];
        ssize_t got = read(0, buffer, sizeof buffer);
        return answer(result, SKILL_STATUS_OK, format("{\"read\":%lld}", (long long)got, 0, 0));
    }
    return answer(result, SKILL_STATUS_NOT_FOUND, strdup("{\"message\":\"no such skill\"}"));
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
    (void)minor;
    (void)host;
    return major == SKILL_ABI_VERSION_MAJOR ? &descriptor : NULL;
}
