#!/usr/bin/env bash
# Opt-in check (not run by CI): compares the clock plugin's time code (Plugins/ClockSkill, on ZoneInfo) with
# the Foundation-based version it replaced (git show of commit 9bc8057), over random zones, instants,
# dates, sums and spans. Known differences are listed in docs/skills/clock.md.
#   usage: scripts/clock-parity.sh [SEED] [full]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/clock-parity"
rm -rf "$work" && mkdir -p "$work"
cp "$root"/Sources/ZoneInfo/*.swift "$root"/scripts/clock-parity/*.swift "$work/"
for file in ClockCalendar ClockZone ClockTime; do
    sed -e '/^import ZoneInfo/d' -e '/^import SkillSDK/d' "$root/Plugins/ClockSkill/$file.swift" > "$work/New_$file.swift"
done
git -C "$root" show 9bc8057:Plugins/ClockSkill/ClockTime.swift | sed -e '/^import SkillSDK/d' \
    -e 's/struct ClockTime/struct OldClockTime/' -e 's/ClockTime\./OldClockTime./g' \
    -e 's/ClockReading(/OldReading(/' -e 's/-> ClockReading/-> OldReading/' > "$work/Old_ClockTime.swift"
mv "$work/Parity.swift" "$work/main.swift"
swiftc -O "$work"/*.swift -o "$work/clock-parity"
"$work/clock-parity" "${1:-1}" ${2:+"$2"}
