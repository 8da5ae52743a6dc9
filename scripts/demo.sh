#!/usr/bin/env bash
# The main job on the embedded defaults: build the host and the bundled plugins, install them into the
# plugins folder, and show them working (list, a real call, a one-shot chat with the offline planner).
#
# Installs into the default locations (see README.md); set SKILLHOST_PLUGINS / SKILLHOST_REGISTRY /
# SKILLHOST_CACHE to use other ones, and PREFIX for where the skillhost binary goes (default ~/.local).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
skillhost="${PREFIX:-$HOME/.local}/bin/skillhost"
# The installed binary is the static one: check that it is, and that it lists and calls a Swift and a C
# plugin in sandboxed workers, before the show.
bash scripts/test-static.sh --installed "$skillhost"

run() { printf '\n$ %s\n' "skillhost $*"; "$skillhost" "$@"; }
run list
run inspect clock.now
run call clock.now '{"timezone": "Europe/Paris"}'
run call text.stats '{"text": "SkillHost loads skills. Skills are plugins. The agent calls them."}'
run call sysinfo.overview '{}'
run chat "what time is it in Asia/Tokyo, then give me statistics for the text hello world"
run call calendar.find_free_slots '{"part_of_day": "morning"}'
run call reminders.list '{}'
run validate Plugins/Instructions/time-zones
run inspect time-zones
run chat "how should I plan a meeting across time zones for my team?"
# The product brief's scenario: two steps, a read then a write (--yes approves the write).
run chat --yes "check tomorrow morning in my calendar for a free slot, then add a 10:00 workout reminder"
run history
run trace --limit 12  # every call above, whichever front end made it
