/*
 * sysinfo.c — the `sysinfo` skill plugin, in plain C99 against skill_abi.h alone.
 *
 * Provides:
 *   sysinfo.kernel  kernel name, release, version, machine and host name (uname)
 *   sysinfo.uptime  time since boot, in seconds and as "3 days, 4:05"
 *   sysinfo.load    1/5/15-minute load averages, CPU count, running/total tasks
 *   sysinfo.memory  total/free/available RAM and swap, in a chosen unit
 *   sysinfo.overview  the headline of each of the above in one flat object
 *
 * Built by scripts/build-plugins.sh:
 *   cc -std=c99 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -I Sources/CSkillABI/include \
 *      Plugins/sysinfo/sysinfo.c Plugins/sysinfo/sysinfo_json.c -o sysinfo.so
 * Every symbol is hidden except skill_plugin_entry (SKILL_EXPORT). Thread-safe: each call uses only its
 * own stack and heap memory, so the manifest sets "thread_safe": true.
 */
#define _GNU_SOURCE
#include "skill_abi.h"
#include "sysinfo_json.h"
#include "sysinfo_manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* One skill: fills `out` (an empty buffer) with the result JSON, or returns an error status and fills it
 * with an error object. */
typedef skill_status (*sysinfo_skill_fn)(const char *arguments, size_t arguments_length, sysinfo_buffer *out);

static skill_status kernel_skill(const char *arguments, size_t arguments_length, sysinfo_buffer *out) {
    struct utsname names;
    (void)arguments;
    (void)arguments_length;
    if (uname(&names) != 0) {
        sysinfo_error(out, "uname() failed: the kernel did not report its name", NULL);
        return SKILL_STATUS_FAILED;
    }
    sysinfo_append(out, "{\"name\":");
    sysinfo_string(out, names.sysname);
    sysinfo_append(out, ",\"release\":");
    sysinfo_string(out, names.release);
    sysinfo_append(out, ",\"version\":");
    sysinfo_string(out, names.version);
    sysinfo_append(out, ",\"machine\":");
    sysinfo_string(out, names.machine);
    sysinfo_append(out, ",\"hostname\":");
    sysinfo_string(out, names.nodename);
    sysinfo_append(out, "}");
    return SKILL_STATUS_OK;
}

/* Appends an uptime as a JSON string, "2 days, 3:04" (days, hours:minutes). */
static void append_uptime_text(sysinfo_buffer *out, long seconds) {
    long days = seconds / 86400;
    sysinfo_appendf(out, "\"%ld day%s, %ld:%02ld\"", days, days == 1 ? "" : "s", seconds % 86400 / 3600,
                    seconds % 3600 / 60);
}

static skill_status uptime_skill(const char *arguments, size_t arguments_length, sysinfo_buffer *out) {
    struct sysinfo info;
    long days, hours, minutes;
    (void)arguments;
    (void)arguments_length;
    if (sysinfo(&info) != 0) {
        sysinfo_error(out, "sysinfo() failed: the kernel did not report its uptime", NULL);
        return SKILL_STATUS_FAILED;
    }
    days = info.uptime / 86400;
    hours = info.uptime % 86400 / 3600;
    minutes = info.uptime % 3600 / 60;
    sysinfo_appendf(out, "{\"seconds\":%ld,\"days\":%ld,\"hours\":%ld,\"minutes\":%ld,\"text\":",
                    (long)info.uptime, days, hours, minutes);
    append_uptime_text(out, info.uptime);
    sysinfo_append(out, "}");
    return SKILL_STATUS_OK;
}

static skill_status load_skill(const char *arguments, size_t arguments_length, sysinfo_buffer *out) {
    double load[3];
    long running = -1, total = -1, cpus = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *file;
    (void)arguments;
    (void)arguments_length;
    file = fopen("/proc/loadavg", "r");
    if (file == NULL) {
        sysinfo_error(out, "cannot read /proc/loadavg", "mount /proc (it is missing in some containers)");
        return SKILL_STATUS_FAILED;
    }
    if (fscanf(file, "%lf %lf %lf %ld/%ld", &load[0], &load[1], &load[2], &running, &total) < 3) {
        fclose(file);
        sysinfo_error(out, "/proc/loadavg has an unexpected format", NULL);
        return SKILL_STATUS_FAILED;
    }
    fclose(file);
    sysinfo_appendf(out, "{\"load_1m\":%.2f,\"load_5m\":%.2f,\"load_15m\":%.2f,\"cpus\":%ld,", load[0], load[1],
                    load[2], cpus);
    sysinfo_appendf(out, "\"load_per_cpu_1m\":%.2f,\"running_tasks\":%ld,\"total_tasks\":%ld}",
                    cpus > 0 ? load[0] / (double)cpus : load[0], running, total);
    return SKILL_STATUS_OK;
}

/* Reads one "Name:   123 kB" line of /proc/meminfo, in bytes; -1 when absent. */
static long long meminfo_bytes(const char *name) {
    char line[256];
    size_t name_length = strlen(name);
    long long kilobytes = -1;
    FILE *file = fopen("/proc/meminfo", "r");
    if (file == NULL) return -1;
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, name, name_length) == 0 && line[name_length] == ':') {
            if (sscanf(line + name_length + 1, "%lld", &kilobytes) != 1) kilobytes = -1;
            break;
        }
    }
    fclose(file);
    return kilobytes < 0 ? -1 : kilobytes * 1024;
}

static skill_status memory_skill(const char *arguments, size_t arguments_length, sysinfo_buffer *out) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
    static const double divisors[] = {1.0, 1024.0, 1048576.0, 1073741824.0};
    const char *names[] = {"MemTotal", "MemFree", "MemAvailable", "SwapTotal", "SwapFree"};
    const char *keys[] = {"total", "free", "available", "swap_total", "swap_free"};
    char unit[16] = "MiB";
    int unit_index = -1, i;
    long long total;

    switch (sysinfo_json_string_member(arguments, arguments_length, "unit", unit, sizeof unit)) {
    case SYSINFO_MEMBER_ABSENT:
    case SYSINFO_MEMBER_FOUND: break;
    default:
        sysinfo_error_field(out, "arguments must be a JSON object whose \"unit\" is a short string", "/unit",
                            "pass {\"unit\": \"MiB\"} or {}");
        return SKILL_STATUS_INVALID_ARGUMENTS;
    }
    for (i = 0; i < 4; i++) {
        if (strcmp(unit, units[i]) == 0) unit_index = i;
    }
    if (unit_index < 0) {
        char message[64];
        snprintf(message, sizeof message, "unknown unit \"%s\"", unit);
        sysinfo_error_field(out, message, "/unit", "use one of bytes, KiB, MiB, GiB");
        return SKILL_STATUS_INVALID_ARGUMENTS;
    }
    total = meminfo_bytes("MemTotal");
    if (total < 0) {
        sysinfo_error(out, "cannot read /proc/meminfo", "mount /proc (it is missing in some containers)");
        return SKILL_STATUS_FAILED;
    }
    sysinfo_appendf(out, "{\"unit\":\"%s\"", units[unit_index]);
    for (i = 0; i < 5; i++) {
        long long bytes = meminfo_bytes(names[i]);
        if (bytes < 0) continue;
        if (unit_index == 0) {
            sysinfo_appendf(out, ",\"%s\":%lld", keys[i], bytes);
        } else {
            sysinfo_appendf(out, ",\"%s\":%.1f", keys[i], (double)bytes / divisors[unit_index]);
        }
    }
    {
        long long available = meminfo_bytes("MemAvailable");
        if (available >= 0 && total > 0) {
            sysinfo_appendf(out, ",\"used_percent\":%.1f", 100.0 * (double)(total - available) / (double)total);
        }
    }
    sysinfo_append(out, "}");
    return SKILL_STATUS_OK;
}

static skill_status overview_skill(const char *arguments, size_t arguments_length, sysinfo_buffer *out) {
    struct utsname names;
    struct sysinfo info;
    double load[3];
    long long total = meminfo_bytes("MemTotal"), available = meminfo_bytes("MemAvailable");
    (void)arguments;
    (void)arguments_length;
    if (uname(&names) != 0 || sysinfo(&info) != 0) {
        sysinfo_error(out, "the kernel did not report uname() or sysinfo()", NULL);
        return SKILL_STATUS_FAILED;
    }
    sysinfo_append(out, "{\"hostname\":");
    sysinfo_string(out, names.nodename);
    sysinfo_append(out, ",\"kernel\":");
    sysinfo_string(out, names.release);
    sysinfo_append(out, ",\"machine\":");
    sysinfo_string(out, names.machine);
    sysinfo_append(out, ",\"uptime\":");
    append_uptime_text(out, info.uptime);
    sysinfo_appendf(out, ",\"uptime_seconds\":%ld", (long)info.uptime);
    if (getloadavg(load, 3) == 3) sysinfo_appendf(out, ",\"load_1m\":%.2f", load[0]);
    sysinfo_appendf(out, ",\"cpus\":%ld", sysconf(_SC_NPROCESSORS_ONLN));
    if (total > 0 && available >= 0) {
        sysinfo_appendf(out, ",\"memory_total_mib\":%.1f,\"memory_available_mib\":%.1f,\"memory_used_percent\":%.1f",
                        (double)total / 1048576.0, (double)available / 1048576.0,
                        100.0 * (double)(total - available) / (double)total);
    }
    sysinfo_append(out, "}");
    return SKILL_STATUS_OK;
}

static const struct {
    const char *id;
    sysinfo_skill_fn run;
} sysinfo_skills[] = {
    {"sysinfo.kernel", kernel_skill},
    {"sysinfo.uptime", uptime_skill},
    {"sysinfo.load", load_skill},
    {"sysinfo.memory", memory_skill},
    {"sysinfo.overview", overview_skill},
};

/* [any-thread] [blocking-ok] */
static skill_status sysinfo_invoke(const skill_plugin_descriptor *plugin, const char *skill_id, const char *arguments,
                                   size_t arguments_length, const skill_call_context *context, skill_result *result) {
    sysinfo_buffer out = {NULL, 0, 0, 0};
    skill_status status = SKILL_STATUS_NOT_FOUND;
    size_t i;
    (void)plugin;
    (void)context;
    if (result == NULL || result->struct_size < SKILL_RESULT_SIZE_1_0) return SKILL_STATUS_INTERNAL;
    for (i = 0; skill_id != NULL && i < sizeof sysinfo_skills / sizeof sysinfo_skills[0]; i++) {
        if (strcmp(skill_id, sysinfo_skills[i].id) == 0) {
            status = sysinfo_skills[i].run(arguments, arguments == NULL ? 0 : arguments_length, &out);
            break;
        }
    }
    if (status == SKILL_STATUS_NOT_FOUND) {
        sysinfo_error(&out, "no such skill in plugin sysinfo; it has sysinfo.kernel, sysinfo.uptime, "
                            "sysinfo.load, sysinfo.memory and sysinfo.overview", NULL);
    }
    if (out.failed) {
        free(out.bytes);
        out.bytes = NULL;
        out.length = 0;
        status = SKILL_STATUS_INTERNAL;
    }
    result->status = status;
    result->json = out.bytes;
    result->json_length = out.length;
    result->plugin_data = NULL;
    return status;
}

/* [any-thread] */
static void sysinfo_free_result(const skill_plugin_descriptor *plugin, skill_result *result) {
    (void)plugin;
    if (result == NULL) return;
    free((void *)result->json);
    result->json = NULL;
    result->json_length = 0;
}

static const skill_plugin_descriptor sysinfo_descriptor = {
    SKILL_ABI_MAGIC,
    SKILL_ABI_VERSION_MAJOR,
    SKILL_ABI_VERSION_MINOR,
    sizeof(skill_plugin_descriptor),
    0,
    SYSINFO_MANIFEST,
    sizeof SYSINFO_MANIFEST - 1,
    sysinfo_invoke,
    sysinfo_free_result,
};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host) {
    (void)host_abi_minor;
    (void)host;
    return host_abi_major == SKILL_ABI_VERSION_MAJOR ? &sysinfo_descriptor : NULL;
}
