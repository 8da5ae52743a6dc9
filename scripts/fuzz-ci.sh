#!/usr/bin/env bash
# CI's fuzz smoke run (issue #16): every fuzz target for FUZZ_CI_SECONDS (default 20) on its checked-in
# seeds, with libFuzzer + AddressSanitizer; fails on any crash, leak or input over 1 s. scripts/test.sh
# calls it after the normal tests (which replay Tests/Fuzz/regressions/). Set SKIP_FUZZ=1 to skip it.
# FUZZ_CI_SKIP names targets with an open finding that CI would hit every run (none at present; the iCalendar
# expansion timeout that was skipped is fixed and replayed from Tests/Fuzz/regressions/ical/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_FUZZ:-0}" = 1 ]; then echo "==> fuzzing skipped (SKIP_FUZZ=1)"; exit 0; fi
skip=" ${FUZZ_CI_SKIP-} "
echo "==> fuzzing every parser for ${FUZZ_CI_SECONDS:-20}s each (skipping:${skip})"
start=$SECONDS
# A fresh corpus directory per run: CI fuzzes from the checked-in seeds only.
rm -rf .build/fuzz/corpus
failed=0
for target in $(bash scripts/fuzz.sh list); do
    case $skip in *" $target "*) echo "==> skipping $target (open finding)"; continue ;; esac
    bash scripts/fuzz.sh "$target" "${FUZZ_CI_SECONDS:-20}" || failed=1
done
echo "==> fuzzing took $((SECONDS - start))s"
exit $failed
