#!/usr/bin/env bash
# Builds the host, the bundled plugins and the test fixtures, then runs every test.
# This is the test command README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-deps.sh
echo "==> building skillhost and the Swift plugins (debug)"
swift build
echo "==> building skillhost-sandbox beside it (the program that starts workers in their namespaces)"
bash scripts/build-sandbox-helper.sh .build/debug
echo "==> building the plugin files into .build/plugins/"
bash scripts/build-plugins.sh .build/plugins
echo "==> building the third-party plugin fixture (a separate package that uses SkillSDK by path)"
# SwiftPM keeps a path dependency's file list in the fixture's build folder: after SDK files were added or
# removed, the first build can fail on a stale list; a fresh build folder fixes that.
swift build --package-path Tests/Fixtures/ThirdPartySkill \
    || { rm -rf Tests/Fixtures/ThirdPartySkill/.build && swift build --package-path Tests/Fixtures/ThirdPartySkill; }
echo "==> running the tests"
# Every temporary folder the tests make goes under one folder of this run, removed at the end (the tests
# make thousands; left in /tmp they filled gigabytes). Mode 1777 as /tmp itself: tests run workers and
# scripts as an unprivileged user too. SKILLHOST_KEEP_TEST_TMP=1 keeps it for a look after a failure.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/skillhost-tests.XXXXXX")
chmod 1777 "$run_tmp"
if [ "${SKILLHOST_KEEP_TEST_TMP:-0}" = 1 ]; then
    echo "==> the tests' temporary folders are kept in $run_tmp"
else
    trap 'rm -rf "$run_tmp"' EXIT
fi
export TMPDIR=$run_tmp
# One test at a time: many tests start child processes, kill workers on deadlines and assert how long that
# took; run side by side on a 2-core machine they starve each other and those timings become noise.
swift test --no-parallel "$@"
bash scripts/fuzz-ci.sh
