#!/usr/bin/env bash
# Benchmarks `skillhost list --json` warm (every file already in the caches) with the bundled plugins,
# first alone, then with COUNT instruction skills in the skills folder. Target: within 1.5x.
#
# usage: scripts/bench-instructions.sh [COUNT] [RUNS]        (defaults 200 skills, 20 runs)
# env:   SKILLHOST (binary; default .build/release/skillhost, else .build/debug/skillhost)
#        PLUGINS_DIR (bundled plugin files; default .build/plugins, built by scripts/build-plugins.sh)
# Prints wall (median, mean) and CPU (user + system) milliseconds of each and their ratios; exits 1 when
# the CPU ratio is over the 1.5x target.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${1:-200}"
runs="${2:-20}"
binary="${SKILLHOST:-}"
if [ -z "$binary" ]; then
    binary="$root/.build/release/skillhost"
    [ -x "$binary" ] || binary="$root/.build/debug/skillhost"
fi
[ -x "$binary" ] || { echo "no skillhost binary: run 'swift build' first" >&2; exit 2; }
plugins_src="${PLUGINS_DIR:-$root/.build/plugins}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/plugins" "$work/empty-skills" "$work/skills"
if ls "$plugins_src"/*.so >/dev/null 2>&1; then cp "$plugins_src"/*.so "$work/plugins/"; fi

# COUNT realistic skills: frontmatter with metadata, a body of ~60 lines, a reference file.
for i in $(seq 1 "$count"); do
    name="bench-skill-$i"
    mkdir -p "$work/skills/$name/references"
    {
        printf -- '---\nname: %s\ndescription: >-\n  Benchmark skill number %s. Explains how to do task %s with the bundled\n  clock and text skills, step by step, with examples.\nlicense: Apache-2.0\nmetadata:\n  author: bench\n  version: "1.0"\n---\n\n# Skill %s\n\n' "$name" "$i" "$i" "$i"
        for line in $(seq 1 60); do printf 'Step %s: call the right tool, check its result, then answer plainly.\n' "$line"; done
    } > "$work/skills/$name/SKILL.md"
    printf 'Reference notes for %s.\n' "$name" > "$work/skills/$name/references/notes.md"
done

# Wall milliseconds of RUNS warm runs (median, mean), after one untimed run that fills the caches.
measure() {
    local skills="$1" cache="$2"
    local args=(list --json --plugins "$work/plugins" --skills "$skills" --registry "$work/registry.json" --cache "$cache")
    "$binary" "${args[@]}" >/dev/null
    for _ in $(seq 1 "$runs"); do
        local start end
        start=$(date +%s%N)
        "$binary" "${args[@]}" >/dev/null
        end=$(date +%s%N)
        echo $(( (end - start) / 1000 ))
    done | sort -n | awk '{ v[NR] = $1; s += $1 } END { printf "%.2f %.2f\n", v[int((NR + 1) / 2)] / 1000, s / NR / 1000 }'
}

# CPU milliseconds (user + system) per run, from /usr/bin/time over RUNS runs: steady on a busy machine,
# where wall time mostly measures waiting for a core.
cpu() {
    local skills="$1" cache="$2"
    /usr/bin/time -f "%U %S" -o "$work/time.txt" bash -c '
        for _ in $(seq 1 "$1"); do "$2" list --json --plugins "$3" --skills "$4" --registry "$5" --cache "$6" >/dev/null; done
    ' _ "$runs" "$binary" "$work/plugins" "$skills" "$work/registry.json" "$cache"
    awk -v n="$runs" '{ printf "%.2f\n", ($1 + $2) * 1000 / n }' "$work/time.txt"
}

read -r base_median base_mean < <(measure "$work/empty-skills" "$work/cache-a")
read -r with_median with_mean < <(measure "$work/skills" "$work/cache-b")
base_cpu=$(cpu "$work/empty-skills" "$work/cache-a")
with_cpu=$(cpu "$work/skills" "$work/cache-b")
listed=$("$binary" list --json --plugins "$work/plugins" --skills "$work/skills" --registry "$work/registry.json" --cache "$work/cache-b" | grep -c '"kind": "instructions"' || true)
ratio=$(awk -v a="$with_median" -v b="$base_median" 'BEGIN { printf "%.2f", a / b }')
cpu_ratio=$(awk -v a="$with_cpu" -v b="$base_cpu" 'BEGIN { printf "%.2f", a / b }')
echo "binary: $binary; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plugins: $(ls "$work/plugins" | wc -l) file(s); instruction skills listed: $listed of $count"
echo "list --json warm, without instruction skills: wall median ${base_median} ms (mean ${base_mean}), CPU ${base_cpu} ms/run ($runs runs)"
echo "list --json warm, with $count instruction skills: wall median ${with_median} ms (mean ${with_mean}), CPU ${with_cpu} ms/run ($runs runs)"
echo "ratio: wall ${ratio}x, CPU ${cpu_ratio}x (target <= 1.5x; judged on CPU, which load does not inflate)"
awk -v r="$cpu_ratio" 'BEGIN { exit (r <= 1.5) ? 0 : 1 }'
