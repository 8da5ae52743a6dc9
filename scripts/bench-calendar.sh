#!/usr/bin/env bash
# Times the calendar and reminders skills on a large file through `skillhost call` (process isolation, as
# users run them): a calendar of N one-off events plus 50 weekly series, and a reminders file of N to-dos.
# The week's listing runs twice: with the series' Europe/Berlin read from the system's zone database, and
# with the same file as Outlook exports it, the zone named `W. Europe Standard Time` and defined by the
# file's own VTIMEZONE (yearly rules from 1601), so the file's rules (Sources/ICalendar/VTimeZoneRules.swift)
# convert every occurrence.
#
# Usage: scripts/bench-calendar.sh [N] [RUNS]    (defaults 5000 events, 5 runs; needs a debug build and
#        scripts/build-plugins.sh). Prints the median wall time of each call in milliseconds.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5000}
runs=${2:-5}
skillhost=.build/debug/skillhost
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/plugins" "$work/config"
cp .build/plugins/calendar.so .build/plugins/reminders.so "$work/plugins/"
cat > "$work/config/skill_registry.json" <<JSON
{"version": 1, "plugins": {
  "calendar": {"config": {"calendar_file": "$work/calendar.ics", "timezone": "Europe/Berlin"}},
  "reminders": {"config": {"reminders_file": "$work/reminders.ics", "timezone": "Europe/Berlin"}}}}
JSON
awk -v n="$count" 'BEGIN {
    printf "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n"
    for (i = 0; i < n; i++) {
        day = 1 + i % 28; month = 1 + int(i / 28) % 12; hour = 8 + i % 9
        printf "BEGIN:VEVENT\r\nUID:e%d@bench\r\nDTSTAMP:20260101T000000Z\r\n", i
        printf "DTSTART:2026%02d%02dT%02d0000Z\r\nDTEND:2026%02d%02dT%02d3000Z\r\n", month, day, hour, month, day, hour
        printf "SUMMARY:Event %d\\, with text\r\nDESCRIPTION:Some notes about event %d that are long enough to f\r\n old once or twice in a real export file.\r\nEND:VEVENT\r\n", i, i
    }
    for (i = 0; i < 50; i++) {
        printf "BEGIN:VEVENT\r\nUID:r%d@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20250106T%02d0000\r\n", i, 8 + i % 9
        printf "DURATION:PT30M\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\nSUMMARY:Series %d\r\nEND:VEVENT\r\n", i
    }
    printf "END:VCALENDAR\r\n"
}' > "$work/calendar.ics"
# The same calendar as Outlook exports it: the series' zone by its Windows name, defined by a VTIMEZONE
# block right after the header (an IANA name would be read from the zone database, whatever the file says).
awk 'NR == 3 {
    print
    printf "BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\n"
    printf "BEGIN:STANDARD\r\nDTSTART:16010101T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
    printf "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\n"
    printf "BEGIN:DAYLIGHT\r\nDTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
    printf "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
    next
} { gsub(/TZID=Europe\/Berlin/, "TZID=\"W. Europe Standard Time\""); print }' "$work/calendar.ics" > "$work/calendar-vtimezone.ics"
sed "s|$work/calendar.ics|$work/calendar-vtimezone.ics|" "$work/config/skill_registry.json" > "$work/config/vtimezone.json"
sed 's/VEVENT/VTODO/; s/^DTSTART:/DUE:/' "$work/calendar.ics" | grep -v '^DTEND\|^RRULE\|^DURATION\|TZID' > "$work/reminders.ics" || true
args=(--plugins "$work/plugins" --cache "$work/cache")
registry=$work/config/skill_registry.json  # time_call's; the VTIMEZONE row passes its own
"$skillhost" list "${args[@]}" --registry "$registry" >/dev/null 2>&1
# Both files must list the same week (the file's rules and the database agree for 2025-2026); only the
# reply's "file" and the zone's name differ.
week='{"from": "2026-06-01", "to": "2026-06-07"}'
from_database=$("$skillhost" call calendar.list_events "$week" "${args[@]}" --registry "$registry" --yes --json |
    grep -v '"file":' | sed 's/"zone": "Europe\/Berlin"/"zone": "W. Europe Standard Time"/')
from_file=$("$skillhost" call calendar.list_events "$week" "${args[@]}" --registry "$work/config/vtimezone.json" --yes --json |
    grep -v '"file":')
[ "$from_database" = "$from_file" ] || { echo "the VTIMEZONE calendar lists a different week" >&2; exit 1; }
time_call() {
    local label=$1; shift
    local times=()
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        "$skillhost" call "$@" "${args[@]}" --registry "$registry" --yes >/dev/null 2>&1
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000000 )))
    done
    printf '%-34s median %5d ms  (runs: %s)\n' "$label" \
        "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")" "${times[*]}"
}
echo "calendar: $(grep -c 'BEGIN:VEVENT' "$work/calendar.ics") events, $(wc -c < "$work/calendar.ics") bytes"
time_call "calendar.list_events (1 week)" calendar.list_events "$week"
registry=$work/config/vtimezone.json time_call "  the same with the file's VTIMEZONE" calendar.list_events "$week"
time_call "calendar.find_free_slots (1 month)" calendar.find_free_slots '{"from": "2026-06-01", "to": "2026-06-30"}'
time_call "calendar.create_event" calendar.create_event '{"title": "Bench", "start": "2026-06-03T10:00"}'
time_call "reminders.list (due before)" reminders.list '{"due_before": "2026-03-01"}'
time_call "reminders.add" reminders.add '{"title": "Bench"}'
