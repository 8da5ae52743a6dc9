#!/usr/bin/env bash
# A long fuzzing campaign (issue #16): each TARGET (default: every target) runs until 10 million executions
# or an hour of the fuzzer's CPU, whichever comes first, FUZZ_JOBS at a time (default: one per CPU), at
# SCHED_IDLE, with the release fuzzer. A thin loop over scripts/fuzz.sh with the settings docs/fuzzing.md
# gives ("Running"); any of them can be set in the environment (FUZZ_RUNS, FUZZ_CPU_SECONDS, FUZZ_TIMEOUT,
# FUZZ_IDLE, FUZZ_CONFIG).
#
#   scripts/fuzz-campaign.sh                  every target
#   scripts/fuzz-campaign.sh http stream ical  these, in this order
#
# Each finished run appends its line to .build/fuzz/logs/campaign.txt (executions, cov, ft, slowest unit,
# whether the CPU budget stopped it); what each run printed goes to .build/fuzz/logs/campaign-TARGET.out.
# Run it from a worktree of its own when you build or test in this one meanwhile: a build of changed
# sources into .build/fuzz would relink the fuzzer under the runs still to start.
# Exit status: 0 when no run found anything (crash, leak, timeout); 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
export FUZZ_CONFIG=${FUZZ_CONFIG:-release} FUZZ_RUNS=${FUZZ_RUNS:-10000000} FUZZ_CPU_SECONDS=${FUZZ_CPU_SECONDS:-3600}
export FUZZ_IDLE=${FUZZ_IDLE:-1} FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-900}
jobs=${FUZZ_JOBS:-$(nproc)}
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(bash scripts/fuzz.sh list); fi
known=$(bash scripts/fuzz.sh list)
for target in "${targets[@]}"; do
    grep -qx -- "$target" <<<"$known" || { echo "unknown target '$target'; scripts/fuzz.sh list names them" >&2; exit 2; }
done

# Build (or find up to date) the fuzzer once, before any run starts.
bash scripts/fuzz.sh replay "${targets[0]}" >/dev/null 2>&1 || true
mkdir -p .build/fuzz/logs
echo "==> campaign: ${targets[*]} ($jobs at a time; $FUZZ_RUNS executions or $FUZZ_CPU_SECONDS CPU seconds each)"
failed=0
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    echo "$(date -u +%T) start $target"
    bash scripts/fuzz.sh "$target" 86400 >".build/fuzz/logs/campaign-$target.out" 2>&1 &
    running=$((running + 1))
    sleep 2  # let each run's own (no-op) build finish before the next one's
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
echo "==> campaign done; tail of .build/fuzz/logs/campaign.txt:"
tail -n "${#targets[@]}" .build/fuzz/logs/campaign.txt
exit $failed
