#!/usr/bin/env bash
# Benchmarks the JSONSchema validator against Python jsonschema and jsonschema-rs in the same run, on a
# realistic tool-argument schema (scripts/bench/schema_tool_arguments.json) and generated instances
# (half valid, half with one typical fault). Reports instances/second and µs/instance for each.
#
# usage: scripts/bench-schema.sh [MIN_SECONDS_PER_MEASUREMENT]   (default 2)
# env:   SCHEMA_BENCH_COUNT (instances, default 2000), SCHEMA_BENCH_VENV (default .build/schema-bench-venv)
# Needs network access to PyPI the first time (pip installs jsonschema 4.26 and jsonschema-rs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-2}"
count="${SCHEMA_BENCH_COUNT:-2000}"
venv="${SCHEMA_BENCH_VENV:-$root/.build/schema-bench-venv}"
work="$root/.build/schema-bench"
mkdir -p "$work"

# Python side.
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/python" -c 'import jsonschema, jsonschema_rs' 2>/dev/null ||
    "$venv/bin/pip" install --quiet "jsonschema==4.26.0" jsonschema-rs

# Swift side: a throwaway package over the library sources, built in release mode, so the benchmark
# does not depend on the rest of the package building.
package="$work/package"
# Copies, not symlinks: SwiftPM misses changes behind symlinked source folders.
rm -rf "$package/Sources"
mkdir -p "$package/Sources/SchemaBench"
cp -R "$root/Sources/SkillJSON" "$root/Sources/JSONSchema" "$package/Sources/"
cp "$root/scripts/bench/schema_bench_main.swift" "$package/Sources/SchemaBench/main.swift"
cat > "$package/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "SchemaBench",
    targets: [
        .target(name: "SkillJSON", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "JSONSchema", dependencies: ["SkillJSON"], exclude: ["MetaSchemas/COPYING"]),
        .executableTarget(name: "SchemaBench", dependencies: ["JSONSchema"]),
    ]
)
SWIFT
echo "building the Swift benchmark (release)..." >&2
swift build -c release --package-path "$package" --product SchemaBench >&2

schema="$root/scripts/bench/schema_tool_arguments.json"
instances="$work/instances.json"
"$venv/bin/python" "$root/scripts/bench/schema_make_instances.py" "$instances" "$count"

results="$work/results.txt"
{
    "$package/.build/release/SchemaBench" "$schema" "$instances" "$seconds"
    "$venv/bin/python" "$root/scripts/bench/schema_bench.py" "$schema" "$instances" "$seconds"
} | tee "$results.raw" >/dev/null

echo "JSON Schema validation, $count instances (half invalid), schema: scripts/bench/schema_tool_arguments.json"
awk '
    { name[NR] = $1; rate[NR] = $2; micros[NR] = $3; valid[NR] = $4
      if ($1 ~ /^python-jsonschema/) py = $2
      if ($1 ~ /^jsonschema-rs/) rs = $2 }
    END {
      printf "%-34s %14s %10s %7s %10s %10s\n", "implementation", "instances/s", "µs/inst", "valid", "vs python", "vs rs"
      for (i = 1; i <= NR; i++)
        printf "%-34s %14.0f %10.3f %7d %9.1fx %9.2fx\n", name[i], rate[i], micros[i], valid[i], rate[i] / py, rate[i] / rs
    }' "$results.raw" | tee "$results"
# Every implementation must agree on which instances are valid.
if [ "$(awk '{print $4}' "$results.raw" | sort -u | wc -l)" != "1" ]; then
    echo "bench-schema: implementations disagree on the number of valid instances" >&2
    exit 1
fi
