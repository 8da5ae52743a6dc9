#!/bin/sh
# Builds skillhost-sandbox (Sources/CSandbox/helper/ and the CSandbox sources, plain C) into
# the folder of a skillhost binary: the small program that starts workers and the scanner child inside their
# namespaces (docs/isolation.md, "Two layers"). skillhost looks for it beside itself.
#
# Usage: scripts/build-sandbox-helper.sh [--release] OUTDIR      (debug: -g -O1; release: -O2)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
flags="-g -O1"
outdir=
for argument in "$@"; do
    case "$argument" in
        --release) flags="-O2" ;;
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-sandbox-helper.sh: unknown option $argument; use --release or --help" >&2; exit 2 ;;
        *) outdir=$argument ;;
    esac
done
[ -n "$outdir" ] || { echo "build-sandbox-helper.sh: give the folder of the skillhost binary" >&2; exit 2; }
mkdir -p "$outdir"
sandbox="$root/Sources/CSandbox"
# Linked statically where libc allows (Debian's does): it starts in about 0.1 ms less, and that is its point.
static=-static
echo 'int main(void){return 0;}' | cc -x c -static -o /dev/null - 2>/dev/null || static=
# shellcheck disable=SC2086
cc -std=gnu11 $flags $static -Wall -Wextra -I "$sandbox/include" -o "$outdir/.skillhost-sandbox.tmp" \
    "$sandbox"/helper/*.c "$sandbox"/*.c
mv -f "$outdir/.skillhost-sandbox.tmp" "$outdir/skillhost-sandbox"
