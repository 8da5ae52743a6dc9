/*
 * sysinfo_manifest.h — the sysinfo plugin's manifest, written by hand (C plugins have no SDK to build it).
 * Shape: docs/architecture.md, "Manifest". Every skill takes an object with no required members and
 * rejects unknown ones; examples are utterances the agent's offline planner matches.
 */
#ifndef SYSINFO_MANIFEST_H
#define SYSINFO_MANIFEST_H

#define SYSINFO_NO_PARAMETERS \
    "{\"type\":\"object\",\"properties\":{},\"required\":[],\"additionalProperties\":false}"

#define SYSINFO_MANIFEST \
    "{\"id\":\"sysinfo\",\"name\":\"System information\",\"version\":\"1.0.0\",\"abi_version\":\"1.0\"," \
    "\"description\":\"Facts about the Linux machine SkillHost runs on: kernel, uptime, load and memory.\"," \
    "\"thread_safe\":true," \
    "\"capabilities\":{\"filesystem\":[],\"network\":\"none\",\"processes\":false}," \
    "\"skills\":[" \
    "{\"id\":\"sysinfo.kernel\",\"title\":\"Kernel and host name\"," \
    "\"description\":\"The running kernel (name, release, version), the machine architecture and the host " \
    "name of this computer. Not for the OS distribution's own version and not for other machines.\"," \
    "\"parameters\":" SYSINFO_NO_PARAMETERS "," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"which kernel is this\",\"what kernel version am I running\",\"what is the host name\"," \
    "\"what architecture is this machine\",\"what is the hostname\",\"what cpu architecture is this\"],\"summary\":\"{hostname} runs {name} {release} on {machine}.\"}," \
    "{\"id\":\"sysinfo.uptime\",\"title\":\"Uptime\"," \
    "\"description\":\"How long this computer has been running since it booted, in seconds and as days, " \
    "hours and minutes. Not for the current time (use clock.now).\"," \
    "\"parameters\":" SYSINFO_NO_PARAMETERS "," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"how long has this machine been up\",\"uptime\",\"when did the computer last reboot\"],\"summary\":\"This machine has been up for {days} d {hours} h {minutes} min.\"}," \
    "{\"id\":\"sysinfo.load\",\"title\":\"CPU load\"," \
    "\"description\":\"The 1, 5 and 15 minute load averages, the number of CPUs and of running tasks: " \
    "how busy this computer is. Not per-process usage and not memory (use sysinfo.memory).\"," \
    "\"parameters\":" SYSINFO_NO_PARAMETERS "," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"how busy is the machine\",\"what is the load average\",\"how many CPUs do I have\"],\"summary\":\"Load {load_1m} over 1 minute ({load_per_cpu_1m} per CPU, {cpus} CPUs), {load_5m} over 5 and {load_15m} over 15 minutes.\"}," \
    "{\"id\":\"sysinfo.memory\",\"title\":\"Memory\"," \
    "\"description\":\"Total, free and available RAM and swap of this computer, and the share in use. " \
    "Not disk space and not per-process memory.\"," \
    "\"parameters\":{\"type\":\"object\",\"properties\":{\"unit\":{\"type\":[\"string\",\"null\"]," \
    "\"description\":\"Unit of the sizes (default MiB; null: the default)\",\"enum\":[\"bytes\",\"KiB\",\"MiB\",\"GiB\",null]}}," \
    "\"required\":[],\"additionalProperties\":false}," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"how much memory is free\",\"how much RAM do I have in {unit}\",\"memory usage\"," \
    "\"how much swap is used\"],\"summary\":\"{used_percent}% of memory in use: {available} of {total} {unit} available.\"}," \
    "{\"id\":\"sysinfo.overview\",\"title\":\"System overview\"," \
    "\"description\":\"One summary of this computer: host name, kernel, architecture, uptime, load, CPU count " \
    "and memory use. Use it for a general \\\"how is the machine\\\" question; for detail use sysinfo.kernel, " \
    "sysinfo.uptime, sysinfo.load or sysinfo.memory. Not for other machines.\"," \
    "\"parameters\":" SYSINFO_NO_PARAMETERS "," \
    "\"permission\":\"read\",\"timeout\":5,\"idempotent\":true," \
    "\"examples\":[\"system overview\",\"system status\",\"show system information\"," \
    "\"tell me about this computer\"],\"summary\":\"{hostname}: kernel {kernel}, up {uptime}, load {load_1m} on {cpus} CPUs, {memory_used_percent}% of memory in use.\"}" \
    "]}"

#endif /* SYSINFO_MANIFEST_H */
