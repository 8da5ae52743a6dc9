/*
 * sdk_invoke_loop.c — calls one skill of a plugin N times in process, from C, the way the host's in-process
 * call does (a call context like __bench-dispatch's: call id "bench", data dir "/tmp", no deadline), and
 * prints the CPU time per call of this thread. What the SDK adds to a call is this loop run on
 * libBenchEchoSkill.so minus the same loop on scripts/bench/dispatch_echo.c.
 *
 * Under `valgrind --tool=callgrind` the instruction count per call is the difference between two runs with
 * different N (start-up cancels out): scripts/bench-sdk.sh does that.
 *
 * usage: sdk_invoke_loop PLUGIN.so SKILL_ID ARGUMENTS_JSON N [host]
 *   host: the strings a real host passes instead (a UUID call id and idempotency key, a data folder path).
 */
#define _GNU_SOURCE
#include "skill_abi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef const skill_plugin_descriptor *(*entry_function)(uint32_t, uint32_t, const skill_host_api *);

static int32_t never_cancelled(const skill_call_context *context) {
    (void)context;
    return 0;
}

static void drop_log(const skill_call_context *context, int32_t level, const char *message, size_t length) {
    (void)context, (void)level, (void)message, (void)length;
}

int main(int argc, char **argv) {
    if (argc != 5 && !(argc == 6 && strcmp(argv[5], "host") == 0)) {
        fprintf(stderr, "usage: %s PLUGIN.so SKILL_ID ARGUMENTS_JSON N [host]\n", argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!library) {
        fprintf(stderr, "sdk_invoke_loop: %s\n", dlerror());
        return 1;
    }
    entry_function entry = (entry_function)dlsym(library, "skill_plugin_entry");
    const skill_plugin_descriptor *plugin = entry ? entry(SKILL_ABI_VERSION_MAJOR, SKILL_ABI_VERSION_MINOR, NULL) : NULL;
    if (!plugin) {
        fprintf(stderr, "sdk_invoke_loop: %s has no descriptor for ABI 1\n", argv[1]);
        return 1;
    }
    const char *arguments = argv[3];
    size_t arguments_length = strlen(arguments);
    long calls = strtol(argv[4], NULL, 10);

    skill_call_context context;
    memset(&context, 0, sizeof context);
    context.struct_size = sizeof context;
    context.call_id = "bench";
    context.session_id = "";
    context.idempotency_key = "";
    context.config_json = "{}";
    context.config_json_length = 2;
    context.data_dir = "/tmp";
    if (argc == 6) {
        context.call_id = "3f6c1a2e-8b4d-4c1e-9a7f-2d5e8b1c4a90";
        context.idempotency_key = "3f6c1a2e-8b4d-4c1e-9a7f-2d5e8b1c4a90";
        context.data_dir = "/home/someone/.local/share/skillhost/data/bench";
    }
    context.is_cancelled = never_cancelled;
    context.log = drop_log;

    struct timespec start, end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    for (long i = 0; i < calls; i++) {
        skill_result result;
        memset(&result, 0, sizeof result);
        result.struct_size = sizeof result;
        skill_status status = plugin->invoke(plugin, argv[2], arguments, arguments_length, &context, &result);
        if (status != SKILL_STATUS_OK) {
            fprintf(stderr, "sdk_invoke_loop: status %d: %.*s\n", status, (int)result.json_length,
                    result.json ? result.json : "");
            return 1;
        }
        plugin->free_result(plugin, &result);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    double nanoseconds = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.3f\n", nanoseconds / 1000.0 / (double)calls);
    return 0;
}
