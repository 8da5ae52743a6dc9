#!/usr/bin/env bash
# Fuzzes SkillHost's parsers of untrusted bytes with libFuzzer + AddressSanitizer (issue #16).
#
#   scripts/fuzz.sh TARGET [SECONDS]     run one target (default 60 s) on its seed corpus
#   scripts/fuzz.sh all [SECONDS]        run every target for SECONDS each
#   scripts/fuzz.sh list                 name the targets
#   scripts/fuzz.sh replay TARGET FILE…  run the fuzz binary once on each FILE (no fuzzing)
#
# The library modules are built once by SwiftPM with coverage instrumentation into .build/fuzz (a build
# path of its own, so the normal build is untouched); Tests/Fuzz/*.swift is then linked with them into ONE
# executable, .build/fuzz/skillhost-fuzz, whose target FUZZ_TARGET selects. New inputs libFuzzer finds go
# to .build/fuzz/corpus/TARGET (not checked in); crashes to .build/fuzz/artifacts/TARGET/. Environment:
#   FUZZ_NICE  nice level (default 0)   FUZZ_RSS_MB  RSS limit (default 2048)   FUZZ_TIMEOUT  seconds per input
#   (default 1; libFuzzer measures wall-clock time, so raise it on a machine busy with other builds)
#   FUZZ_RUNS  stop after this many executions (a long campaign: FUZZ_RUNS=10000000 with SECONDS=3600)
#   FUZZ_CPU_SECONDS  also stop once the fuzzer has used this much CPU (a watcher sends SIGINT; the run then
#   counts as finished): issue #16's "10 million executions or an hour" as an hour of fuzzing, not of waiting
#   FUZZ_IDLE=1  run at SCHED_IDLE (chrt --idle 0): the fuzzer takes only CPU nobody else wants, so builds and
#   benchmarks beside it are not slowed (nice 19 still takes 1.5 % of a busy core)
#   A long campaign, one target after another (docs/fuzzing.md):
#   FUZZ_CONFIG=release FUZZ_RUNS=10000000 FUZZ_CPU_SECONDS=3600 FUZZ_IDLE=1 FUZZ_TIMEOUT=900 \
#     scripts/fuzz.sh yaml 86400   (the summary line of each run goes to .build/fuzz/logs/campaign.txt;
#   at SCHED_IDLE a fuzzer gets no CPU while a build uses every core, hence the long wall-clock timeout:
#   a slow unit counts by its replayed CPU time, docs/fuzzing.md)
#   FUZZ_CONFIG  debug (default: -Onone, best stack traces) or release (-O with the same instrumentation and
#   ASan, several times the executions per second: for long campaigns; binary skillhost-fuzz-release)
# Exit status: 0 when no target crashed, leaked or timed out; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=.build/fuzz
config=${FUZZ_CONFIG:-debug}
case $config in
    debug) optimize=-Onone; testing=(); binary=$build/skillhost-fuzz ;;
    release) optimize=-O; testing=(-Xswiftc -enable-testing); binary=$build/skillhost-fuzz-release ;;
    *) echo "FUZZ_CONFIG must be debug or release, not '$config'" >&2; exit 2 ;;
esac
targets=(json json-diff schema schema-diff manifest elf regex frame frame-stream sse http http-request stream openai registry yaml ical mcp mcp-diff tzif skillpkg web-access workflow)

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage

if [ "$1" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi

build_fuzzer() {
    echo "==> building the library modules with coverage + ASan into $build" >&2
    swift build -c "$config" --build-path "$build" --target SkillMCP -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    swift build -c "$config" --build-path "$build" --target SkillAgent -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    swift build -c "$config" --build-path "$build" --target ICalendar -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    swift build -c "$config" --build-path "$build" --target ZoneInfo -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    swift build -c "$config" --build-path "$build" --target SkillWeb -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    swift build -c "$config" --build-path "$build" --target SkillWorkflows -Xswiftc -sanitize=fuzzer,address ${testing[@]+"${testing[@]}"} >&2
    local objects=()
    for module in SkillJSON StableHash JSONSchema SkillContract ManifestCheck SkillPosix SkillHTTP SkillHostCore SkillStore SkillCalls SkillAgent SkillMCP SkillWorkflows SkillWeb ICalendar ZoneInfo CSkillABI CSandbox CSQLiteBatch CPosixEvents; do
        local folder="$build/$config/$module.build"
        if [ -f "$folder/sources" ]; then
            # A Swift module: the objects of its current sources only (SwiftPM keeps the object of a source
            # file that was deleted or moved since, and linking it too fails on what it referred to).
            while IFS= read -r source; do objects+=("$folder/$(basename "$source").o"); done < "$folder/sources"
        else
            objects+=("$folder"/*.o)
        fi
    done
    local sources=(Tests/Fuzz/*.swift Tests/Fuzz/Targets/*.swift)
    # Relink only when a fuzz source or a library object is newer than the binary.
    if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" "${objects[@]}" -newer "$binary" 2>/dev/null | head -1)" ]; then
        return
    fi
    echo "==> linking $binary" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library $optimize -g \
        -I "$build/$config/Modules" \
        -Xcc -fmodule-map-file="$root/$build/$config/CSkillABI.build/module.modulemap" \
        -Xcc -I -Xcc "$root/Sources/CSkillABI/include" \
        -Xcc -fmodule-map-file="$root/Sources/COpenSSL/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/CSQLite/module.modulemap" \
        -Xcc -fmodule-map-file="$root/$build/$config/CSandbox.build/module.modulemap" \
        -Xcc -fmodule-map-file="$root/$build/$config/CSQLiteBatch.build/module.modulemap" \
        -Xcc -fmodule-map-file="$root/$build/$config/CPosixEvents.build/module.modulemap" \
        -module-name SkillHostFuzz "${sources[@]}" "${objects[@]}" -lssl -lcrypto -lsqlite3 -lm \
        -o "$binary" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

run_target() {
    local target=$1 seconds=$2
    local corpus=$build/corpus/$target artifacts=$build/artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    # A file inside keeps the folder: a `swift build` into .build/fuzz (another fuzz.sh) deletes empty folders.
    touch "$artifacts/.keep"
    local seeds=Tests/Fuzz/corpus/$target dict=()
    [ -d "$seeds" ] || seeds=
    case $target in
        json|json-diff|schema|schema-diff|manifest|registry|openai|stream|mcp|mcp-diff) dict=(-dict=Tests/Fuzz/dictionaries/json.dict) ;;
        frame|frame-stream) dict=(-dict=Tests/Fuzz/dictionaries/frame.dict) ;;
        http) dict=(-dict=Tests/Fuzz/dictionaries/http.dict) ;;
        ical) dict=(-dict=Tests/Fuzz/dictionaries/ical.dict) ;;
        web-access) dict=(-dict=Tests/Fuzz/dictionaries/web.dict) ;;
    esac
    echo "==> fuzzing $target for ${seconds}s" >&2
    local log=$build/logs/$target.log
    [ "$config" = debug ] || log=$build/logs/$target-$config.log
    mkdir -p "$build/logs"
    local launcher=(nice -n "${FUZZ_NICE:-0}")
    [ "${FUZZ_IDLE:-0}" = 1 ] && launcher=(chrt --idle 0)
    local started=$SECONDS
    set +e
    FUZZ_TARGET=$target "${launcher[@]}" "$binary" "$corpus" ${seeds:+"$seeds"} "${dict[@]}" \
        -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout="${FUZZ_TIMEOUT:-1}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1 &
    local pid=$! stopped=$build/logs/$target.cpu-limit
    rm -f "$stopped"
    if [ -n "${FUZZ_CPU_SECONDS:-}" ]; then
        # The CPU-time stop. It also re-creates the artifacts folder should it go, which libFuzzer needs at
        # the moment it writes a crash (it does not create it, and still reports a file it could not write).
        (
            ticks=$(getconf CLK_TCK)
            while kill -0 "$pid" 2>/dev/null; do
                mkdir -p "$artifacts"
                used=$(awk '{print int(($14 + $15) / '"$ticks"')}' "/proc/$pid/stat" 2>/dev/null || echo 0)
                if [ "${used:-0}" -ge "$FUZZ_CPU_SECONDS" ]; then touch "$stopped"; kill -INT "$pid"; break; fi
                sleep 5
            done
        ) &
    fi
    wait "$pid"
    local status=$?
    wait
    set -e
    # libFuzzer exits 72 when interrupted: the CPU-time stop is a finished run, not a failure.
    [ $status -eq 72 ] && [ -e "$stopped" ] && status=0
    local stats
    stats=$(grep -hE '^stat::(number_of_executed_units|slowest_unit_time_sec)' "$log" | awk '{printf "%s %s  ", $1, $2}')
    echo "$(date -u +%FT%TZ) $target exit $status wall $((SECONDS - started))s $(grep -aE '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+') ${stats}$([ -e "$stopped" ] && echo "stopped at ${FUZZ_CPU_SECONDS} CPU s")" \
        >> "$build/logs/campaign.txt"
    grep -E '^#[0-9]+.*(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss' "$log" | tail -3 | sed "s/^/    [$target] /" >&2
    if [ $status -ne 0 ]; then
        echo "FAIL: $target (exit $status); see $log and $artifacts" >&2
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -5 >&2
        return 1
    fi
}

build_fuzzer
if [ "$1" = replay ]; then
    target=$2; shift 2
    FUZZ_TARGET=$target "$binary" -runs=1 "$@"
    exit
fi
seconds=${2:-60}
failed=0
if [ "$1" = all ]; then
    for target in "${targets[@]}"; do run_target "$target" "$seconds" || failed=1; done
else
    run_target "$1" "$seconds" || failed=1
fi
exit $failed
