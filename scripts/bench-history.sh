#!/usr/bin/env bash
# Benchmarks what the SQLite history adds to a skill call (target: under 50 µs per call, docs/history.md), in
# one run of `skillhost __bench-history` on a fresh database in a temporary folder:
#   - dispatch only:          the dispatch benchmark's in-process call of bench.echo (scripts/bench/dispatch_echo.c);
#   - history, no recording:  the same call between the assistant and tool messages the history stores anyway;
#   - history + recording:    the same plus the agent's recording of it (StoreCallRecorder: the call's skill and
#                             key in the assistant message, the idempotency decision, the call's whole row
#                             logged and committed with the tool message);
#   - 4 calls per reply:      a reply asking for 4 calls, their rows logged or each committed on its own;
#   - recorder alone:         the recorder without a persistent history (it inserts the call's row itself).
# Recording costs "history + recording" minus "history, no recording" (CPU µs; the machine may be shared).
# Then scripts/bench/history_floor.c writes the same rows through SQLite's C API alone: the floor under it,
# through SQLite's own VFS and through the batch VFS SkillStore uses (Sources/CSQLiteBatch), and (batch VFS)
# the rows schema version 3 wrote (4 KiB pages, a context upsert per call), to compare. Last, recording's cost
# as a multiple of what the version-3 rows cost in C in the same run (a fixed reference workload, the same for
# every build) and of the same rows in C: figures that move much less with the machine's state than the µs do.
# Beside the median round, recording's cost between the modes' lowest rounds (the rounds least disturbed by
# other work; builds from before 2026-12-01 session 8 do not report it).
# Builds skillhost in release mode and runs its hidden `__bench-dispatch` and `__bench-history` subcommands.
#
# usage: scripts/bench-history.sh [ITERATIONS]   (default 5000)
#        BENCH_BINARY=PATH (with SKIP_BUILD=1) measures another skillhost build, e.g. an older one for an A/B.
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
[ -n "${SKIP_BUILD:-}" ] || (cd "$root" && swift build -c release --product skillhost 2>&1 | tail -1)
binary="${BENCH_BINARY:-$root/.build/release/skillhost}"

echo "history benchmark: $iterations calls per mode (median of 5 interleaved rounds), $(nproc) cores, database on $(df -P "$work" | awk 'NR==2 {print $1}')"
"$binary" __bench-history "$work/state" --plugin "$work/libdispatch_echo.so" --skill bench.echo --iterations "$iterations" --json \
    > "$work/swift.json"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
for row in rows:
    print("  %-50s cpu %6.1f µs/call   wall %7.1f µs/call" % (row["name"], row["cpu_us"], row["mean_us"]))
base = rows[1]
for row in rows[2:4]:
    print("  recording adds (%s): cpu %.1f µs/call, wall %.1f µs/call" % (row["name"].split("(")[1].rstrip(")"), row["cpu_us"] - base["cpu_us"], row["mean_us"] - base["mean_us"]))
for row in rows[2:4]:
    if "cpu_min_us" in row:
        print("  recording adds (%s), lowest rounds: cpu %.1f µs/call" % (row["name"].split("(")[1].rstrip(")"), row["cpu_min_us"] - base["cpu_min_us"]))
' "$work/swift.json"
cc -O2 -I "$root/Sources/CSQLiteBatch/include" "$root/scripts/bench/history_floor.c" "$root/Sources/CSQLiteBatch/sqlite_batch_vfs.c" \
    -lsqlite3 -lpthread -o "$work/history_floor"
"$work/history_floor" "$work/floor.sqlite3" "$iterations"
"$work/history_floor" "$work/floor.sqlite3" "$iterations" batch | tee "$work/floor.txt"
"$work/history_floor" "$work/floor.sqlite3" "$iterations" batch v3 | tee "$work/floor-v3.txt"
python3 -c '
import json, re, sys
rows = json.load(open(sys.argv[1]))
floor, reference = (float(re.search(r"rows add ([0-9.]+)", open(path).read()).group(1)) for path in sys.argv[2:4])
base = rows[1]["cpu_us"]
for row in rows[2:4]:
    adds = row["cpu_us"] - base
    print("  recording adds (%s) / the version-3 rows in C: %.2f   / the same rows in C: %.2f"
          % (row["name"].split("(")[1].rstrip(")"), adds / reference, adds / floor))
' "$work/swift.json" "$work/floor.txt" "$work/floor-v3.txt"
