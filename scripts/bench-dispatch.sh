#!/usr/bin/env bash
# Benchmarks skill dispatch: the cost of one call of a trivial skill (bench.echo, scripts/bench/dispatch_echo.c)
#   - in-process:               PluginLibrary.invoke in the host process (ABI crossing + result copy);
#   - in-process, Swift SDK:    the same skill written with SkillSDK (Plugins/BenchEchoSkill): what the SDK adds;
#   - worker frame round trip:  request frame out, reply frame back over the worker's pipes, measured on the
#                               host thread that owns the pipes (target: under 10 µs);
#   - worker executor execute:  a whole WorkerPoolExecutor.execute from a Swift task (argument encoding,
#                               thread hand-off, reply parsing, result mapping).
# Builds skillhost in release mode and runs its hidden `__bench-dispatch` subcommand.
#
# With --sandbox it also measures what the worker sandbox (issue #10) costs: the median time to start a
# worker (spawn until ready) with and without the sandbox, and the frame round trip to each.
#
# usage: scripts/bench-dispatch.sh [--sandbox] [ITERATIONS]   (default 20000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sandbox=no
if [ "${1:-}" = "--sandbox" ]; then sandbox=yes; shift; fi
iterations="${1:-20000}"
work="$root/.build/dispatch-bench"
mkdir -p "$work"
chmod 700 "$work"

cc -O2 -std=c99 -shared -fPIC -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/dispatch_echo.c" -o "$work/libdispatch_echo.so"
chmod 755 "$work/libdispatch_echo.so"

(cd "$root" && swift build -c release --product skillhost 2>&1 | tail -1)
bash "$root/scripts/build-sandbox-helper.sh" --release "$root/.build/release"
binary="$root/.build/release/skillhost"
(cd "$root" && swift build -c release --product BenchEchoSkill 2>&1 | tail -1)
twin="$root/.build/release/libBenchEchoSkill.so"

echo "dispatch benchmark: skill bench.echo {\"text\":\"hello\"}, $iterations calls per mode, $(nproc) cores"
"$binary" __bench-dispatch "$work/libdispatch_echo.so" bench.echo '{"text":"hello"}' --iterations "$iterations" \
    --swift-twin "$twin"
cc -O2 -std=c99 "$root/scripts/bench/pipe_pingpong.c" -o "$work/pipe_pingpong"
"$work/pipe_pingpong" "$iterations"
if [ "$sandbox" = yes ]; then
    "$binary" __bench-sandbox "$work/libdispatch_echo.so" bench.echo --calls "$iterations"
fi
