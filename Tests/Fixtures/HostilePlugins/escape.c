/*
 * escape.c — a test plugin that tries to leave its sandbox (issue #10), one skill per escape, plus an
 * allowed one. Built by the sandbox tests (cc -shared -fPIC) into a temporary folder; never installed.
 *
 * Skills (arguments are flat JSON, read by hand):
 *   escape.read {"path"}           open and read a file
 *   escape.write {"path"}          create/overwrite a file
 *   escape.connect {"port"}        TCP connect to 127.0.0.1:port
 *   escape.signal_parent {"pid"}   kill(pid, SIGURG), the host's pid (default: its parent); harmless if it got through
 *   escape.ptrace_parent {"pid"}   PTRACE_SEIZE the host (default: its parent), then detach
 *   escape.daemon                  double fork; the grandchild takes an exclusive lock on <data>/daemon.lock and
 *                                  sleeps 60 s (the test sees whether it lives by trying the lock)
 *   escape.thread                  starts and joins a thread (allowed)
 *   escape.data                    writes and reads back a file in its data folder (allowed)
 * A refused attempt answers SKILL_STATUS_PERMISSION_DENIED for EACCES/EPERM, and for ESRCH (a process outside
 * the worker's PID namespace cannot even be named) (other errors: FAILED) with
 * {"message": "<what>: <strerror>", "errno": N}; a success answers {"ok": true, ...}.
 */
#define _GNU_SOURCE
#include "skill_abi.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define SKILL(name, desc) \
    "{\"id\":\"escape." name "\",\"title\":\"" name "\",\"description\":\"" desc "\"," \
    "\"parameters\":{\"type\":\"object\"},\"permission\":\"read\",\"timeout\":30,\"idempotent\":true}"

#ifndef ESCAPE_CAPABILITIES
#define ESCAPE_CAPABILITIES ""
#endif

static const char manifest[] =
    "{\"id\":\"escape\",\"name\":\"Escape\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\","
    "\"description\":\"Tries to leave its sandbox, for the sandbox tests.\",\"thread_safe\":false,"
    ESCAPE_CAPABILITIES
    "\"skills\":["
    SKILL("read", "Reads a file.") "," SKILL("write", "Writes a file.") ","
    SKILL("connect", "Connects to a TCP port on 127.0.0.1.") "," SKILL("signal_parent", "Signals its parent.") ","
    SKILL("ptrace_parent", "Attaches to its parent.") "," SKILL("daemon", "Starts a double-forked daemon.") ","
    SKILL("thread", "Starts a thread.") "," SKILL("data", "Uses its data folder.")
    "]}";

static skill_status answer(skill_result *result, skill_status status, char *json) {
    result->status = status;
    result->json = json;
    result->json_length = json ? strlen(json) : 0;
    result->plugin_data = json;
    return status;
}

static skill_status refused(skill_result *result, const char *what, int code) {
    char *json = malloc(1024);
    snprintf(json, 1024, "{\"message\":\"%s: %s\",\"errno\":%d}", what, strerror(code), code);
    int denied = code == EACCES || code == EPERM || code == ESRCH;
    return answer(result, denied ? SKILL_STATUS_PERMISSION_DENIED : SKILL_STATUS_FAILED, json);
}

static skill_status ok(skill_result *result, const char *extra) {
    char *json = malloc(1024);
    snprintf(json, 1024, "{\"ok\":true%s}", extra);
    return answer(result, SKILL_STATUS_OK, json);
}

/* The string value of "key" in flat JSON (no escapes), copied into `out`. */
static int string_argument(const char *arguments, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *start = strstr(arguments, pattern);
    if (!start) return 0;
    start += strlen(pattern);
    const char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = 0;
    return 1;
}

static void *nothing(void *argument) { return argument; }

static skill_status invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                           size_t arguments_length, const skill_call_context *context, skill_result *result) {
    (void)plugin, (void)arguments_length;
    const char *name = skill_id + strlen("escape.");
    char path[4096];
    char detail[256];
    if (strcmp(name, "read") == 0 && string_argument(arguments, "path", path, sizeof path)) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return refused(result, "open for reading", errno);
        char buffer[256];
        ssize_t got = read(fd, buffer, sizeof buffer);
        int code = errno;
        close(fd);
        if (got < 0) return refused(result, "read", code);
        snprintf(detail, sizeof detail, ",\"bytes\":%zd", got);
        return ok(result, detail);
    }
    if (strcmp(name, "write") == 0 && string_argument(arguments, "path", path, sizeof path)) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) return refused(result, "open for writing", errno);
        ssize_t put = write(fd, "escaped\n", 8);
        close(fd);
        snprintf(detail, sizeof detail, ",\"bytes\":%zd", put);
        return ok(result, detail);
    }
    if (strcmp(name, "connect") == 0) {
        const char *at = strstr(arguments, "\"port\":");
        int port = at ? atoi(at + 7) : 0;
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return refused(result, "socket", errno);
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            int code = errno;
            close(fd);
            return refused(result, "connect", code);
        }
        close(fd);
        return ok(result, "");
    }
    if (strcmp(name, "signal_parent") == 0) {
        const char *at = strstr(arguments, "\"pid\":");
        pid_t host = at ? (pid_t)atoi(at + 6) : getppid();
        if (host <= 0) return refused(result, "kill parent (not visible)", ESRCH);
        if (kill(host, SIGURG) != 0) return refused(result, "kill parent", errno);
        return ok(result, "");
    }
    if (strcmp(name, "ptrace_parent") == 0) {
        const char *at = strstr(arguments, "\"pid\":");
        pid_t parent = at ? (pid_t)atoi(at + 6) : getppid();
        if (parent <= 0) return refused(result, "ptrace parent (not visible)", ESRCH);
        if (ptrace(PTRACE_SEIZE, parent, 0, 0) != 0) return refused(result, "ptrace parent", errno);
        ptrace(PTRACE_DETACH, parent, 0, 0);
        return ok(result, "");
    }
    if (strcmp(name, "daemon") == 0) {
        int channel[2];
        if (pipe(channel) != 0) return refused(result, "pipe", errno);
        pid_t child = fork();
        if (child < 0) {
            int code = errno;
            close(channel[0]), close(channel[1]);
            return refused(result, "fork", code);
        }
        if (child == 0) {
            setsid();
            pid_t grandchild = fork();
            if (grandchild == 0) {
                close(channel[0]);
                char lock_path[4096];
                snprintf(lock_path, sizeof lock_path, "%s/daemon.lock", context->data_dir);
                int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
                if (lock < 0 || flock(lock, LOCK_EX) != 0) _exit(1);
                pid_t me = getpid();
                write(channel[1], &me, sizeof me);
                close(channel[1]);
                for (int i = 0; i < 60; i++) sleep(1);
                _exit(0);
            }
            _exit(grandchild > 0 ? 0 : 1);
        }
        close(channel[1]);
        waitpid(child, NULL, 0);
        pid_t daemon = 0;
        ssize_t got = read(channel[0], &daemon, sizeof daemon);
        close(channel[0]);
        if (got != sizeof daemon) return refused(result, "second fork", ECHILD);
        snprintf(detail, sizeof detail, ",\"pid\":%d", (int)daemon);
        return ok(result, detail);
    }
    if (strcmp(name, "thread") == 0) {
        pthread_t thread;
        int code = pthread_create(&thread, NULL, nothing, NULL);
        if (code != 0) return refused(result, "pthread_create", code);
        pthread_join(thread, NULL);
        return ok(result, "");
    }
    if (strcmp(name, "data") == 0) {
        snprintf(path, sizeof path, "%s/note.txt", context->data_dir);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) return refused(result, "open data file", errno);
        char text[16] = {0};
        ssize_t put = write(fd, "kept", 4);
        ssize_t got = pread(fd, text, sizeof text - 1, 0);
        close(fd);
        snprintf(detail, sizeof detail, ",\"wrote\":%zd,\"read\":\"%s\"", put, got > 0 ? text : "");
        return ok(result, detail);
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
    (void)major, (void)minor, (void)host;
    return &descriptor;
}
