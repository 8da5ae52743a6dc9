#!/usr/bin/env bash
# Tests the binary users get: scripts/install.sh builds skillhost with the Swift runtime and Foundation
# linked statically (scratch .build/static), which the test suite never runs (its builds are dynamic). This
# installs it with the release plugins into a throw-away prefix and home, then checks that
#   - the binary maps no Swift runtime or Foundation library of the toolchain (it is static);
#   - `list --json` shows a Swift plugin (clock) and a C plugin (sysinfo), each sandboxed (`required`, or
#     `best-effort` on a kernel without Landlock);
#   - `call clock.now` (Swift: the worker must find and map the toolchain's runtime for the plugin inside
#     its sandbox) and `call sysinfo.overview` (C) answer from sandboxed workers;
#   - a broken call still fails the documented way (exit code and one line), so the CLI's error path
#     works in the static binary too.
#
# Opt-in (not in CI: the static release build takes several minutes on 2 cores; see docs/isolation.md,
# "The static binary"). scripts/demo.sh runs the same checks on the binary it installed.
#
# usage: scripts/test-static.sh                 build and install into a temporary prefix, then check
#        scripts/test-static.sh --installed BIN  check an installed BIN against the plugins folder and
#                                                registry it uses (SKILLHOST_* or the defaults)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "test-static: $*" >&2; }
fail() { echo "test-static: FAIL: $*" >&2; exit 1; }

if [ "${1:-}" = "--installed" ]; then
    [ $# -eq 2 ] || { echo "usage: scripts/test-static.sh [--installed BIN]" >&2; exit 2; }
    skillhost="$2"
else
    [ $# -eq 0 ] || { echo "usage: scripts/test-static.sh [--installed BIN]" >&2; exit 2; }
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    export HOME="$scratch/home" PREFIX="$scratch/prefix"
    export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
    unset SKILLHOST_PLUGINS SKILLHOST_REGISTRY SKILLHOST_CACHE SKILLHOST_SKILLS
    mkdir -p "$HOME"
    say "installing into $scratch (scripts/install.sh)"
    bash "$root/scripts/install.sh" >"$scratch/install.log" 2>&1 || { tail -20 "$scratch/install.log" >&2; fail "install.sh failed"; }
    skillhost="$PREFIX/bin/skillhost"
fi
[ -x "$skillhost" ] || fail "$skillhost is not an executable"

# 1. Static: no Swift runtime or Foundation library among what the binary needs.
if ldd "$skillhost" | grep -E 'libswiftCore|libFoundation|libswift_Concurrency|libdispatch' >&2; then
    fail "$skillhost links the libraries above dynamically; install.sh should link them statically"
fi
say "ok: $skillhost links no Swift runtime or Foundation library dynamically"
helper="$(dirname "$skillhost")/skillhost-sandbox"
[ -x "$helper" ] || fail "$helper is missing: install.sh installs it beside skillhost (workers start in their namespaces through it)"
"$skillhost" inspect clock | grep -q "layers: *namespaces" || fail "inspect clock does not name the namespace layer"
say "ok: skillhost-sandbox is installed beside it and inspect names the namespace layer"

# 2. Both plugins listed, sandboxed.
list="$("$skillhost" list --json)" || fail "list --json exited with $?"
printf '%s' "$list" | python3 -c '
import json, sys
catalog = json.load(sys.stdin)
plugins = {p["id"]: p for p in catalog["plugins"]}
skills = {s["id"] for p in catalog["plugins"] for s in p.get("skills", [])}
for plugin, skill in (("clock", "clock.now"), ("sysinfo", "sysinfo.overview")):
    assert skill in skills, f"{skill} missing"
    mode = plugins[plugin].get("sandbox") or "none"
    assert mode.startswith(("required", "best-effort")), f"{plugin}: sandbox {mode}"
    print(f"{plugin}: sandbox {mode}", file=sys.stderr)
' || fail "list --json does not show clock.now and sysinfo.overview sandboxed"
say "ok: list shows clock (Swift) and sysinfo (C), both sandboxed"

# 3. Calls through sandboxed workers.
now="$("$skillhost" call clock.now '{"timezone": "UTC"}')" || fail "call clock.now exited with $?"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); assert r["timezone"] == "UTC" and r["time"], r' "$now" \
    || fail "call clock.now answered: $now"
say "ok: call clock.now (Swift plugin, sandboxed worker): $(printf '%s' "$now" | tr -d ' \n')"
overview="$("$skillhost" call sysinfo.overview '{}')" || fail "call sysinfo.overview exited with $?"
python3 -c 'import json, sys; json.loads(sys.argv[1])' "$overview" || fail "call sysinfo.overview answered: $overview"
say "ok: call sysinfo.overview (C plugin, sandboxed worker)"

# 4. The error path: bad arguments are refused with the documented exit code and one line.
set +e
message="$("$skillhost" call clock.now '{"timezone": 5}' 2>&1 >/dev/null)"
status=$?
set -e
[ "$status" -ne 0 ] && [ "$(printf '%s\n' "$message" | wc -l)" -eq 1 ] \
    || fail "call clock.now with a bad argument: exit $status, message: $message"
say "ok: a bad argument fails with exit $status: $message"
say "all checks passed"
