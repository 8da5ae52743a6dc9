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
 *      Plugins/sysinfo/sysinfo.c -o sysinfo.so
 * Arguments are read and results written with skill_json.h (header-only, beside skill_abi.h).
 * Every symbol is hidden except skill_plugin_entry (SKILL_EXPORT). Thread-safe: each call uses only its
 * own stack and heap memory, so the manifest sets "thread_safe": true.
 */
#define _GNU_SOURCE
#include "skill_abi.h"
#include "skill_json.h"
#include "sysinfo_manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* One skill: writes its result (or, returning an error status, an error object) into `out`. */
typedef skill_status (*sysinfo_skill_fn)(const char *arguments, size_t arguments_length, skill_json_writer *out);

/* `value` rounded to `tenths_or_hundredths` (10 or 100) parts, for non-negative values. */
static double rounded(double value, double parts) { return (double)(long long)(value * parts + 0.5) / parts; }

static skill_status kernel_skill(const char *arguments, size_t arguments_length, skill_json_writer *out) {
    struct utsname names;
    (void)arguments;
    (void)arguments_length;
    if (uname(&names) != 0) {
        skill_json_error(out, "uname() failed: the kernel did not report its name", NULL, NULL);
        return SKILL_STATUS_FAILED;
    }
    skill_json_begin_object(out);
    skill_json_member_string(out, "name", names.sysname);
    skill_json_member_string(out, "release", names.release);
    skill_json_member_string(out, "version", names.version);
    skill_json_member_string(out, "machine", names.machine);
    skill_json_member_string(out, "hostname", names.nodename);
    skill_json_end_object(out);
    return SKILL_STATUS_OK;
}

/* Writes the member `key` with an uptime as text, "2 days, 3:04" (days, hours:minutes). */
static void member_uptime_text(skill_json_writer *out, const char *key, long seconds) {
    char text[64];
    long days = seconds / 86400;
    snprintf(text, sizeof text, "%ld day%s, %ld:%02ld", days, days == 1 ? "" : "s", seconds % 86400 / 3600,
             seconds % 3600 / 60);
    skill_json_member_string(out, key, text);
}

static skill_status uptime_skill(const char *arguments, size_t arguments_length, skill_json_writer *out) {
    struct sysinfo info;
    (void)arguments;
    (void)arguments_length;
    if (sysinfo(&info) != 0) {
        skill_json_error(out, "sysinfo() failed: the kernel did not report its uptime", NULL, NULL);
        return SKILL_STATUS_FAILED;
    }
    skill_json_begin_object(out);
    skill_json_member_integer(out, "seconds", info.uptime);
    skill_json_member_integer(out, "days", info.uptime / 86400);
    skill_json_member_integer(out, "hours", info.uptime % 86400 / 3600);
    skill_json_member_integer(out, "minutes", info.uptime % 3600 / 60);
    member_uptime_text(out, "text", info.uptime);
    skill_json_end_object(out);
    return SKILL_STATUS_OK;
}

static skill_status load_skill(const char *arguments, size_t arguments_length, skill_json_writer *out) {
    double load[3];
    long running = -1, total = -1, cpus = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *file;
    (void)arguments;
    (void)arguments_length;
    file = fopen("/proc/loadavg", "r");
    if (file == NULL) {
        skill_json_error(out, "cannot read /proc/loadavg", NULL, "mount /proc (it is missing in some containers)");
        return SKILL_STATUS_FAILED;
    }
    if (fscanf(file, "%lf %lf %lf %ld/%ld", &load[0], &load[1], &load[2], &running, &total) < 3) {
        fclose(file);
        skill_json_error(out, "/proc/loadavg has an unexpected format", NULL, NULL);
        return SKILL_STATUS_FAILED;
    }
    fclose(file);
    skill_json_begin_object(out);
    skill_json_member_number(out, "load_1m", rounded(load[0], 100));
    skill_json_member_number(out, "load_5m", rounded(load[1], 100));
    skill_json_member_number(out, "load_15m", rounded(load[2], 100));
    skill_json_member_integer(out, "cpus", cpus);
    skill_json_member_number(out, "load_per_cpu_1m", rounded(cpus > 0 ? load[0] / (double)cpus : load[0], 100));
    skill_json_member_integer(out, "running_tasks", running);
    skill_json_member_integer(out, "total_tasks", total);
    skill_json_end_object(out);
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

static skill_status memory_skill(const char *arguments, size_t arguments_length, skill_json_writer *out) {
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
    static const double divisors[] = {1.0, 1024.0, 1048576.0, 1073741824.0};
    const char *names[] = {"MemTotal", "MemFree", "MemAvailable", "SwapTotal", "SwapFree"};
    const char *keys[] = {"total", "free", "available", "swap_total", "swap_free"};
    char unit[16] = "MiB";
    int unit_index = -1, i;
    long long total, available;
    char type = 0;

    /* null means "not given" (what strict-mode clients send for an optional member): the default. */
    int given = !(skill_json_get_type(arguments, arguments_length, "/unit", &type) == SKILL_JSON_OK && type == 'z');
    switch (given ? skill_json_get_string(arguments, arguments_length, "/unit", unit, sizeof unit, NULL) : SKILL_JSON_ABSENT) {
    case SKILL_JSON_OK:
    case SKILL_JSON_ABSENT: break;
    default:
        skill_json_error(out, "arguments must be a JSON object whose \"unit\" is a short string", "/unit",
                         "pass {\"unit\": \"MiB\"} or {}");
        return SKILL_STATUS_INVALID_ARGUMENTS;
    }
    for (i = 0; i < 4; i++) {
        if (strcmp(unit, units[i]) == 0) unit_index = i;
    }
    if (unit_index < 0) {
        char message[64];
        snprintf(message, sizeof message, "unknown unit \"%s\"", unit);
        skill_json_error(out, message, "/unit", "use one of bytes, KiB, MiB, GiB");
        return SKILL_STATUS_INVALID_ARGUMENTS;
    }
    total = meminfo_bytes("MemTotal");
    if (total < 0) {
        skill_json_error(out, "cannot read /proc/meminfo", NULL, "mount /proc (it is missing in some containers)");
        return SKILL_STATUS_FAILED;
    }
    skill_json_begin_object(out);
    skill_json_member_string(out, "unit", units[unit_index]);
    for (i = 0; i < 5; i++) {
        long long bytes = meminfo_bytes(names[i]);
        if (bytes < 0) continue;
        if (unit_index == 0) {
            skill_json_member_integer(out, keys[i], bytes);
        } else {
            skill_json_member_number(out, keys[i], rounded((double)bytes / divisors[unit_index], 10));
        }
    }
    available = meminfo_bytes("MemAvailable");
    if (available >= 0 && total > 0) {
        skill_json_member_number(out, "used_percent", rounded(100.0 * (double)(total - available) / (double)total, 10));
    }
    skill_json_end_object(out);
    return SKILL_STATUS_OK;
}

static skill_status overview_skill(const char *arguments, size_t arguments_length, skill_json_writer *out) {
    struct utsname names;
    struct sysinfo info;
    double load[3];
    long long total = meminfo_bytes("MemTotal"), available = meminfo_bytes("MemAvailable");
    (void)arguments;
    (void)arguments_length;
    if (uname(&names) != 0 || sysinfo(&info) != 0) {
        skill_json_error(out, "the kernel did not report uname() or sysinfo()", NULL, NULL);
        return SKILL_STATUS_FAILED;
    }
    skill_json_begin_object(out);
    skill_json_member_string(out, "hostname", names.nodename);
    skill_json_member_string(out, "kernel", names.release);
    skill_json_member_string(out, "machine", names.machine);
    member_uptime_text(out, "uptime", info.uptime);
    skill_json_member_integer(out, "uptime_seconds", info.uptime);
    if (getloadavg(load, 3) == 3) skill_json_member_number(out, "load_1m", rounded(load[0], 100));
    skill_json_member_integer(out, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
    if (total > 0 && available >= 0) {
        skill_json_member_number(out, "memory_total_mib", rounded((double)total / 1048576.0, 10));
        skill_json_member_number(out, "memory_available_mib", rounded((double)available / 1048576.0, 10));
        skill_json_member_number(out, "memory_used_percent",
                                 rounded(100.0 * (double)(total - available) / (double)total, 10));
    }
    skill_json_end_object(out);
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
    skill_json_writer out;
    skill_status status = SKILL_STATUS_NOT_FOUND;
    size_t i;
    (void)plugin;
    (void)context;
    skill_json_writer_init(&out);
    if (result == NULL || result->struct_size < SKILL_RESULT_SIZE_1_0) return SKILL_STATUS_INTERNAL;
    for (i = 0; skill_id != NULL && i < sizeof sysinfo_skills / sizeof sysinfo_skills[0]; i++) {
        if (strcmp(skill_id, sysinfo_skills[i].id) == 0) {
            status = arguments == NULL ? sysinfo_skills[i].run("{}", 2, &out)
                                       : sysinfo_skills[i].run(arguments, arguments_length, &out);
            break;
        }
    }
    if (status == SKILL_STATUS_NOT_FOUND) {
        skill_json_error(&out, "no such skill in plugin sysinfo; it has sysinfo.kernel, sysinfo.uptime, "
                               "sysinfo.load, sysinfo.memory and sysinfo.overview", NULL, NULL);
    }
    /* Out of memory while writing becomes SKILL_STATUS_INTERNAL with no JSON. */
    return skill_json_finish_result(&out, status, result);
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
    skill_json_free_result,
};

SKILL_EXPORT const skill_plugin_descriptor *skill_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor,
                                                               const skill_host_api *host) {
    (void)host_abi_minor;
    (void)host;
    return host_abi_major == SKILL_ABI_VERSION_MAJOR ? &sysinfo_descriptor : NULL;
}
