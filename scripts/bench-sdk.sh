#!/usr/bin/env bash
# What SkillSDK adds to one call (issue 9: "a Swift skill that finishes without suspending costs the SDK
# ≤ 2 µs over the C echo"), measured in ways machine load does not distort much:
#   - instructions per call (valgrind callgrind; the difference of a long and a short run, so loading the
#     plugin cancels out), and
#   - CPU time per call of the calling thread (CLOCK_THREAD_CPUTIME_ID; median of RUNS runs, the plugins
#     alternating within each round),
# for the C echo (scripts/bench/dispatch_echo.c) and the two Swift twins in Plugins/BenchEchoSkill:
# `bench.echo` (a SynchronousSkill: no Task) and `bench.echo_async` (an async `execute` that does not
# suspend: Task.immediate and the call rendezvous). Each is called from C (scripts/bench/sdk_invoke_loop.c)
# exactly as the host's in-process invoke calls it, with `{"text":"hello"}`.
#
# usage: scripts/bench-sdk.sh [RUNS]      (default 9)
# env:   BENCH_SDK_PLUGIN (a libBenchEchoSkill.so to measure instead of building one, e.g. an older build)
#        BENCH_CALLS (calls per CPU-time run, default 200000)
# Prints one table; exits 1 when the synchronous skill's CPU time over the C echo is above 2 µs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-9}"
calls="${BENCH_CALLS:-200000}"
work="$root/.build/bench-sdk"
mkdir -p "$work"
chmod 700 "$work"
arguments='{"text":"hello"}'

plugin="${BENCH_SDK_PLUGIN:-}"
if [ -z "$plugin" ]; then
    (cd "$root" && swift build -c release --product BenchEchoSkill 2>&1 | tail -1) >&2
    plugin="$(cd "$root" && swift build -c release --show-bin-path)/libBenchEchoSkill.so"
fi
# valgrind cannot read the debug info of some Swift release builds: measure a copy without it.
strip --strip-debug -o "$work/libBenchEchoSkill.so" "$plugin"
cc -O2 -std=c99 -Wall -Wextra -Werror -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/sdk_invoke_loop.c" -o "$work/sdk_invoke_loop" -ldl
cc -O2 -std=c99 -shared -fPIC -fvisibility=hidden -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/dispatch_echo.c" -o "$work/libdispatch_echo.so"
chmod 755 "$work/libdispatch_echo.so" "$work/libBenchEchoSkill.so"

names=("C echo" "Swift bench.echo (SynchronousSkill)" "Swift bench.echo_async (async execute)")
files=("$work/libdispatch_echo.so" "$work/libBenchEchoSkill.so" "$work/libBenchEchoSkill.so")
ids=(bench.echo bench.echo bench.echo_async)

# Instructions per call: (run with 12,000 calls − run with 2,000 calls) / 10,000.
instructions() {
    local file="$1" id="$2" short long
    short=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/sdk_invoke_loop" "$file" "$id" "$arguments" 2000 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    long=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/sdk_invoke_loop" "$file" "$id" "$arguments" 12000 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo $(( (long - short) / 10000 ))
}

declare -a counts
if command -v valgrind >/dev/null; then
    for i in 0 1 2; do counts[$i]=$(instructions "${files[$i]}" "${ids[$i]}"); done
else
    echo "bench-sdk: valgrind not installed (apt-get install valgrind): no instruction counts" >&2
    counts=(- - -)
fi

# CPU µs per call: RUNS rounds, each running the three in turn, so load hits them alike.
: > "$work/cpu.txt"
for _ in $(seq 1 "$runs"); do
    for i in 0 1 2; do
        echo "$i $("$work/sdk_invoke_loop" "${files[$i]}" "${ids[$i]}" "$arguments" "$calls")" >> "$work/cpu.txt"
    done
done
median() { awk -v i="$1" '$1 == i { print $2 }' "$work/cpu.txt" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
c_median=$(median 0)

printf 'SDK cost per call, %s cores, load %s, %s runs of %s calls\n' "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)" "$runs" "$calls"
printf '%-42s %14s %14s %16s\n' "skill" "instructions" "CPU µs (med)" "over C echo µs"
status=0
for i in 0 1 2; do
    m=$(median "$i")
    over=$(awk -v a="$m" -v b="$c_median" 'BEGIN { printf "%.2f", a - b }')
    printf '%-42s %14s %14s %16s\n' "${names[$i]}" "${counts[$i]}" "$m" "$([ "$i" = 0 ] && echo - || echo "+$over")"
    if [ "$i" = 1 ] && awk -v o="$over" 'BEGIN { exit !(o > 2.0) }'; then status=1; fi
done
exit "$status"
