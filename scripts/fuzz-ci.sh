#!/usr/bin/env bash
# CI's fuzz smoke run (issue #16): every fuzz target for FUZZ_CI_SECONDS (default 20) on its checked-in
# seeds, with libFuzzer + AddressSanitizer; fails on any crash, leak or input over 1 s. scripts/test.sh
# calls it after the normal tests (which replay Tests/Fuzz/regressions/). Set SKIP_FUZZ=1 to skip it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SKIP_FUZZ:-0}" = 1 ]; then echo "==> fuzzing skipped (SKIP_FUZZ=1)"; exit 0; fi
echo "==> fuzzing every parser for ${FUZZ_CI_SECONDS:-20}s each (scripts/fuzz.sh all)"
start=$SECONDS
# A fresh corpus directory per run: CI fuzzes from the checked-in seeds only.
rm -rf .build/fuzz/corpus
bash scripts/fuzz.sh all "${FUZZ_CI_SECONDS:-20}"
echo "==> fuzzing took $((SECONDS - start))s"
