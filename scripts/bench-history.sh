#!/usr/bin/env bash
# Benchmarks what the SQLite history adds to a skill call (target: under 50 µs per call, docs/history.md):
#   - before: the dispatch benchmark's in-process call of bench.echo (scripts/bench-dispatch.sh);
#   - after:  the same call plus the agent's recording of it (StoreCallRecorder: idempotency decision,
#             `started` row, finish with result, summary and one context change: two WAL transactions),
#             measured alone on a fresh database in a temporary folder.
# Builds skillhost in release mode and runs its hidden `__bench-dispatch` and `__bench-history` subcommands.
#
# usage: scripts/bench-history.sh [ITERATIONS]   (default 5000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
iterations="${1:-5000}"
work="$root/.build/history-bench"
rm -rf "$work"
mkdir -p "$work/state"
chmod 700 "$work"
trap 'rm -rf "$work"' EXIT

cc -O2 -std=c99 -shared -fPIC -I "$root/Sources/CSkillABI/include" \
    "$root/scripts/bench/dispatch_echo.c" -o "$work/libdispatch_echo.so"
chmod 755 "$work/libdispatch_echo.so"
(cd "$root" && swift build -c release --product skillhost 2>&1 | tail -1)
binary="$root/.build/release/skillhost"

echo "history benchmark: $iterations calls, $(nproc) cores, database on $(df -P "$work" | awk 'NR==2 {print $1}')"
echo "before (dispatch only):"
"$binary" __bench-dispatch "$work/libdispatch_echo.so" bench.echo '{"text":"hello"}' --iterations "$iterations" | sed 's/^/  /'
echo "added by recording each call:"
"$binary" __bench-history "$work/state" --iterations "$iterations"
