#!/usr/bin/env bash
# One benchmark run for issue 9 ("fast where users feel it"): builds skillhost and the plugins in release
# mode, measures everything side by side, prints one table and writes it to bench/results.md.
#
# Rows (each with median, min, max; the machine's core count and load are in the header):
#   - dispatch: a direct Swift call, the in-process C echo call, the same echo written with SkillSDK
#     (Plugins/BenchEchoSkill, in process: what the SDK adds; `bench.echo` is a SynchronousSkill, and the
#     "async" row its twin `bench.echo_async` with an async execute; scripts/bench-sdk.sh counts their
#     instructions), the worker round trip, a whole executor call,
#     next to the floors measured in the same run (bare pipe ping-pong, futex ping-pong with and without a
#     short spin): __bench-dispatch reports 20 batch means per mode;
#   - start-up: `skillhost --help`, a worker ready for a C plugin (spawn to ready, measured by the host), and
#     a whole `skillhost __worker` process that loads a C plugin and exits;
#   - `list --json` at 200 plugins (600 skills; scripts/bench/catalog_plugin.c with distinct ids), cold (no
#     cache) and warm; `call clock.now` (a Swift skill) as a whole process, and the `__worker` that call
#     starts (clock.so loaded, ready, exit) on its own: the call minus it is the host's share;
#     also warm without the listing cache (the catalog built from the scan cache, docs/listing-cache.md);
#   - JSON Schema validation against Python jsonschema and jsonschema-rs (scripts/bench-schema.sh, 3 runs);
#   - peak RSS of the host (`list --json`, `call`) and of one worker.
# Not run by CI: it takes a few minutes and its numbers depend on the machine's load.
#
# usage: scripts/bench.sh            env: BENCH_RUNS (process runs per row, default 20),
#                                         BENCH_ITERATIONS (calls per dispatch mode, default 20000),
#                                         BENCH_SWIFT_PLUGINS (folder with release clock.so: skip that build),
#                                         BENCH_SKIP (words: schema, call — rows to leave out),
#                                         BENCH_LINK=dynamic (measure the dynamically linked build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${BENCH_RUNS:-20}"
iterations="${BENCH_ITERATIONS:-20000}"
work="$root/.build/bench"
mkdir -p "$work" "$root/bench"
chmod 700 "$work"
raw="$work/raw.txt"
: > "$raw"
say() { echo "bench: $*" >&2; }

# The binary users get from scripts/install.sh: Swift runtime and Foundation linked statically.
# BENCH_LINK=dynamic measures the plain `swift build -c release` binary instead.
say "building skillhost and the plugins (release)"
if [ "${BENCH_LINK:-static}" = dynamic ]; then
    (cd "$root" && swift build -c release --product skillhost 2>&1 | tail -1) >&2
    skillhost="$root/.build/release/skillhost"
    bash "$root/scripts/build-sandbox-helper.sh" --release "$root/.build/release"
else
    (cd "$root" && swift build -c release --static-swift-stdlib --scratch-path .build/static --product skillhost 2>&1 | tail -1) >&2
    skillhost="$root/.build/static/release/skillhost"
    bash "$root/scripts/build-sandbox-helper.sh" --release "$root/.build/static/release"
fi
skip=" ${BENCH_SKIP:-} "
if [[ "$skip" == *" call "* ]]; then
    :
elif [ -n "${BENCH_SWIFT_PLUGINS:-}" ]; then  # reuse plugins built elsewhere (e.g. for a baseline run)
    mkdir -p "$work/swift-plugins" && cp "$BENCH_SWIFT_PLUGINS"/*.so "$work/swift-plugins/"
else
    bash "$root/scripts/build-plugins.sh" --release "$work/swift-plugins" >/dev/null
fi

# The Swift twin of the C echo (Plugins/BenchEchoSkill): what the SDK adds to a call, in the same process.
(cd "$root" && swift build -c release --product BenchEchoSkill 2>&1 | tail -1) >&2
cp "$(cd "$root" && swift build -c release --show-bin-path)/libBenchEchoSkill.so" "$work/libBenchEchoSkill.so"

cflags=(-O2 -std=c99 -Wall -Wextra -Werror)
cc "${cflags[@]}" "$root/scripts/bench/proc_time.c" -o "$work/proc_time"
cc -O2 -std=c99 "$root/scripts/bench/pipe_pingpong.c" -o "$work/pipe_pingpong"
cc -O2 -Wall "$root/scripts/bench/futex_pingpong.c" -o "$work/futex_pingpong"
cc "${cflags[@]}" -shared -fPIC -fvisibility=hidden -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/dispatch_echo.c" -o "$work/libdispatch_echo.so"
chmod 755 "$work/libdispatch_echo.so"

# 200 copies of a small C plugin with distinct ids (built once; rebuilt when the source changes).
catalog="$work/catalog"
stamp="$(cksum < "$root/scripts/bench/catalog_plugin.c" | cut -d' ' -f1)"
if [ "$(cat "$catalog/.stamp" 2>/dev/null)" != "$stamp" ]; then
    say "building 200 catalog plugins"
    rm -rf "$catalog"
    mkdir -p "$catalog/plugins"
    for i in $(seq -w 1 200); do
        cc "${cflags[@]}" -shared -fPIC -fvisibility=hidden -I "$root/Sources/CSkillABI/include" \
            -DPLUGIN_ID="\"p$i\"" "$root/scripts/bench/catalog_plugin.c" -o "$catalog/plugins/p$i.so" &
        if (( 10#$i % 8 == 0 )); then wait; fi
    done
    wait
    chmod 755 "$catalog"/plugins/*.so
    echo "$stamp" > "$catalog/.stamp"
fi

timed() { # NAME UNIT-NOTE -- proc_time arguments…
    local name="$1"; shift
    local line
    line="$("$work/proc_time" "$@")"
    echo "process|$name|$line" >> "$raw"
}

say "dispatch ($iterations calls per mode)"
"$skillhost" __bench-dispatch "$work/libdispatch_echo.so" bench.echo '{"text":"hello"}' \
    --iterations "$iterations" --swift-twin "$work/libBenchEchoSkill.so" --json > "$work/dispatch.json"
python3 - "$work/dispatch.json" >> "$raw" <<'PY'
import json, sys
for row in json.load(open(sys.argv[1])):
    cpu = f" {row['median_batch_cpu_us']:.3f}" if row.get("median_batch_cpu_us") is not None else ""
    print(f"micro|{row['name']}|{row['median_batch_us']:.3f} {row.get('min_batch_us', row['median_batch_us']):.3f} {row.get('max_batch_us', row['median_batch_us']):.3f}{cpu}")
PY
# The bare pipe floor: 20 batches of iterations/20 round trips each.
for _ in $(seq 1 20); do "$work/pipe_pingpong" $((iterations / 20)); done |
    awk '{ for (i = 1; i <= NF; i++) if ($i == "mean") print $(i + 1) }' | sort -g |
    awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                              printf "micro|pipe ping-pong floor (C)|%.3f %.3f %.3f\n", m, v[1], v[NR] }' >> "$raw"
"$work/futex_pingpong" "$iterations" 0 2000 |
    awk '{ printf "micro|futex ping-pong floor, spin %s (C)|%s %s %s\n", $2, $3, $4, $5 }' >> "$raw"

say "start-up"
timed "skillhost --help" "$runs" -- "$skillhost" --help
timed "skillhost __worker (C plugin: load, ready, exit)" "$runs" -- "$skillhost" __worker "$work/libdispatch_echo.so"

say "catalog: list --json at 200 plugins"
export SKILLHOST_PLUGINS="$catalog/plugins" SKILLHOST_REGISTRY="$catalog/registry.json"
export SKILLHOST_CACHE="$catalog/cache"
timed "list --json, 200 plugins, cold (no cache)" "${BENCH_COLD_RUNS:-5}" --no-warmup --before "rm -rf '$catalog/cache'" -- "$skillhost" list --json
timed "list --json, 200 plugins, warm" "$runs" -- "$skillhost" list --json
# The catalog path itself (scan cache warm, listing cache removed before each run: docs/listing-cache.md).
timed "list --json, 200 plugins, warm, no listing cache" "$runs" --before "rm -f '$catalog/cache/list_output.cache'" -- "$skillhost" list --json

if [[ "$skip" != *" call "* ]]; then
say "call clock.now (whole process)"
export SKILLHOST_PLUGINS="$work/call/plugins" SKILLHOST_REGISTRY="$work/call/registry.json"
export SKILLHOST_CACHE="$work/call/cache"
export SKILLHOST_STATE="$work/call/state"  # every call is recorded (docs/history.md): here, not in the user's history
rm -rf "$work/call"
mkdir -p "$work/call/plugins"
cp "$work/swift-plugins/clock.so" "$work/call/plugins/"
"$skillhost" trust clock >/dev/null  # the usual state: the plugin's SHA-256 pinned (checked on each call)
timed "call clock.now (Swift skill, host + worker)" "$runs" -- "$skillhost" call clock.now '{}'
# A spawned `__worker` that loads clock.so (Swift runtime, no Foundation) and exits. `call` itself forks its
# worker first thing and overlaps it with the gates (docs/isolation.md, "Spare worker"), so the call costs
# less than the host's share plus this row.
timed "skillhost __worker (Swift clock plugin: load, ready, exit)" "$runs" -- "$skillhost" __worker "$work/call/plugins/clock.so"
unset SKILLHOST_PLUGINS SKILLHOST_REGISTRY SKILLHOST_CACHE SKILLHOST_STATE
fi

if [[ "$skip" != *" schema "* ]]; then
say "JSON Schema validation (3 runs)"
# scripts/bench-schema.sh builds the Swift side (from fresh copies of the sources, so it rebuilds each
# time) and the Python venv, and measures once; the two other runs reuse what it built.
# A SchemaBench binary newer than every validator source is reused as is.
schema_work="$root/.build/schema-bench"
schema_venv="${SCHEMA_BENCH_VENV:-$root/.build/schema-bench-venv}"
schema_binary="$schema_work/package/.build/release/SchemaBench"
first=1
if [ ! -x "$schema_binary" ] || [ -n "$(find "$root/Sources/SkillJSON" "$root/Sources/JSONSchema" -newer "$schema_binary" -print -quit)" ]; then
    bash "$root/scripts/bench-schema.sh" 1 >/dev/null 2>"$work/schema.log"
    first=2
fi
{
    if [ "$first" = 2 ]; then cat "$schema_work/results.txt.raw"; fi
    for _ in $(seq "$first" 3); do
        "$schema_work/package/.build/release/SchemaBench" "$root/scripts/bench/schema_tool_arguments.json" "$schema_work/instances.json" 1
        "$schema_venv/bin/python" "$root/scripts/bench/schema_bench.py" "$root/scripts/bench/schema_tool_arguments.json" "$schema_work/instances.json" 1
    done
} | awk '{ print "schema|" $1 "|" $3 }' >> "$raw"
fi

commit="$(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet HEAD -- Sources Package.swift || echo '+changes')"
python3 - "$raw" "$root/bench/results.md" "$commit" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(swift --version 2>/dev/null | head -1)" "${BENCH_LINK:-static}" <<'PY'
import datetime, statistics, sys
raw, out, commit, cores, load, swift, link = sys.argv[1:8]
rows, schema = [], {}
for line in open(raw):
    kind, name, values = line.rstrip("\n").split("|")
    if kind == "schema":
        schema.setdefault(name, []).append(float(values))
    else:
        rows.append((kind, name, [float(v) for v in values.split()]))
micro = {name: v for kind, name, v in rows if kind == "micro"}
def ratio(name, base):
    return f"{micro[name][0] / micro[base][0]:.1f}x {base}" if name in micro and base in micro else ""
lines = [
    "# Benchmark results (scripts/bench.sh)", "",
    f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit {commit}, {link} build, {cores} cores, "
    f"load average {load} at the end, {swift}. Release build. Medians over runs (processes) or over 20 "
    "batch means (calls); the machine is shared, so compare rows of the same run. Process rows also give the "
    "median CPU time (user + system, with waited-for children), which a loaded machine inflates far less than "
    "wall time.", "",
    "| what | median | min | max | unit | note |", "|---|---:|---:|---:|---|---|",
]
notes = {
    "in-process invoke": ratio("in-process invoke", "direct Swift call"),
    "in-process invoke, Swift SDK skill": (
        f"+{micro['in-process invoke, Swift SDK skill'][0] - micro['in-process invoke'][0]:.2f} µs over the C echo"
        if "in-process invoke, Swift SDK skill" in micro and "in-process invoke" in micro else ""),
    "in-process invoke, Swift SDK skill, async": (
        f"+{micro['in-process invoke, Swift SDK skill, async'][0] - micro['in-process invoke'][0]:.2f} µs over the C echo"
        if "in-process invoke, Swift SDK skill, async" in micro and "in-process invoke" in micro else ""),
    "worker frame round trip": ratio("worker frame round trip", "in-process invoke"),
    "worker executor execute": ratio("worker executor execute", "in-process invoke"),
}
for kind, name, v in rows:
    if kind == "micro":
        unit = "µs"
        note = "; ".join(n for n in (notes.get(name, ""), f"CPU {v[3]:.2f} µs (calling thread)" if len(v) > 3 else "") if n)
        lines.append(f"| {name} | {v[0]:.2f} | {v[1]:.2f} | {v[2]:.2f} | {unit} | {note} |")
    else:
        cpu = f"; CPU {v[4]:.1f} ms" if len(v) > 4 else ""
        lines.append(f"| {name} | {v[0]:.1f} | {v[1]:.1f} | {v[2]:.1f} | ms | peak RSS {v[3] / 1024:.1f} MiB{cpu} |")
if schema:
    med = {n: statistics.median(v) for n, v in schema.items()}
    py = next((m for n, m in med.items() if n.startswith("python-jsonschema")), None)
    rs = next((m for n, m in med.items() if n.startswith("jsonschema-rs")), None)
    for name, values in schema.items():
        note = []
        if py: note.append(f"{py / med[name]:.1f}x faster than python-jsonschema")
        if rs: note.append(f"{rs / med[name]:.2f}x jsonschema-rs speed")
        lines.append(f"| schema validation: {name} | {med[name]:.3f} | {min(values):.3f} | {max(values):.3f} | µs/instance | {'; '.join(note)} |")
lines += ["", "Rows: see the header of scripts/bench.sh. The worker start-up row measured by the host is spawn to "
          "`ready`; the `__worker` process row also includes exit. Peak RSS is the largest ru_maxrss of the timed "
          "process (the host's own, not its workers')."]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
PY
