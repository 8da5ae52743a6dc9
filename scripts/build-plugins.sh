#!/bin/sh
# Builds the example plugins and copies them into one folder, named as the host expects them:
#   clock.so    (Swift, product ClockSkill)
#   text.so     (Swift, product TextSkill)
#   files.so    (Swift, product FilesSkill)
#   calendar.so (Swift, product CalendarSkill)
#   reminders.so (Swift, product RemindersSkill)
#   sysinfo.so  (plain C, Plugins/sysinfo/*.c against Sources/CSkillABI/include/skill_abi.h alone)
#
# Usage: scripts/build-plugins.sh [--release] [OUTDIR]     (OUTDIR defaults to .build/plugins)
# Debug builds by default; --release builds the Swift plugins with `-c release` and the C one with -O2.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
configuration=debug
outdir=
for argument in "$@"; do
    case "$argument" in
        --release) configuration=release ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-plugins.sh: unknown option $argument; use --release or --help" >&2; exit 2 ;;
        *) outdir=$argument ;;
    esac
done
outdir=${outdir:-$root/.build/plugins}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

cd "$root"
for product in ClockSkill TextSkill FilesSkill CalendarSkill RemindersSkill; do
    swift build -c "$configuration" --product "$product"
done
bindir=$(swift build -c "$configuration" --show-bin-path)

# Copy to a temporary name and rename, so a host scanning OUTDIR never sees a half-written file.
install_plugin() {
    cp "$1" "$outdir/.$2.tmp"
    mv -f "$outdir/.$2.tmp" "$outdir/$2"
    echo "built $outdir/$2 (from $1)"
}
install_plugin "$bindir/libClockSkill.so" clock.so
install_plugin "$bindir/libTextSkill.so" text.so
install_plugin "$bindir/libFilesSkill.so" files.so
install_plugin "$bindir/libCalendarSkill.so" calendar.so
install_plugin "$bindir/libRemindersSkill.so" reminders.so

optimization=-g
[ "$configuration" = release ] && optimization=-O2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
${CC:-cc} -std=c99 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden $optimization \
    -I Sources/CSkillABI/include Plugins/sysinfo/*.c -o "$scratch/sysinfo.so"
install_plugin "$scratch/sysinfo.so" sysinfo.so
