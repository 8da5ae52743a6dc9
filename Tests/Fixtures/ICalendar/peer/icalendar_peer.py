"""The other side of the interop tests (Tests/ICalendarTests/InteropTests.swift): Python's `icalendar`
package reads and writes iCalendar files, `recurring_ical_events` expands recurrences.

  icalendar_peer.py dump FILE FROM TO   prints the file's events, to-dos and the occurrences between FROM and
                                        TO (YYYY-MM-DD, UTC midnight) as one JSON object
  icalendar_peer.py write FILE          writes a calendar built with icalendar's API
  icalendar_peer.py corpus              lists the real-world calendars the installed packages ship (icalendar's
                                        tests/calendars and tests/events, recurring_ical_events' test/calendars)
                                        and, for each, the occurrences recurring_ical_events lists from
                                        2000-01-01 to 2030-01-01 (or why it refuses the file) and the number of
                                        VTODOs icalendar reads, as one JSON object
  icalendar_peer.py rrule DTSTART RULE…  prints, for each RULE, the first 40 occurrences (floating times,
                                        YYYYMMDDTHHMMSS) python-dateutil (recurring_ical_events' engine)
                                        expands from DTSTART before 2100, as one JSON list of lists
  icalendar_peer.py contents FILE…      prints every property of every component icalendar reads in each FILE, one
                                        "/VCALENDAR/VEVENT|NAME;PARAMS|value" entry each, as one JSON object by
                                        file (null for a file icalendar cannot read)

Values: "t:<seconds since the epoch>" for a time with a zone, "floating:YYYY-MM-DDTHH:MM:SS" without one,
"date:YYYY-MM-DD" for a date. "zone" is the TZID parameter, "UTC" for a UTC time, "" otherwise.
"""
import datetime
import glob
import importlib.metadata
import json
import os
import sys
import warnings
import zoneinfo

import icalendar
import recurring_ical_events


def value(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            return "floating:" + v.strftime("%Y-%m-%dT%H:%M:%S")
        return "t:%d" % int(v.timestamp())
    return "date:" + v.isoformat()


def zone(prop):
    tzid = prop.params.get("TZID")
    if tzid:
        return str(tzid)
    if isinstance(prop.dt, datetime.datetime) and prop.dt.tzinfo is not None:
        return "UTC"
    return ""


def offset(v):
    if isinstance(v, datetime.datetime) and v.tzinfo is not None:
        return int(v.utcoffset().total_seconds())
    return None


def text(component, name):
    return str(component[name]) if name in component else ""


def dump(path, start, stop):
    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
    events = []
    for event in calendar.walk("VEVENT"):
        begin = event["DTSTART"]
        if "DTEND" in event:
            end = value(event["DTEND"].dt)
        elif "DURATION" in event:
            end = value(begin.dt + event["DURATION"].dt)
        else:
            end = ""
        events.append({
            "uid": text(event, "UID"), "summary": text(event, "SUMMARY"), "location": text(event, "LOCATION"),
            "notes": text(event, "DESCRIPTION"), "start": value(begin.dt), "end": end, "zone": zone(begin),
            "offset": offset(begin.dt),
            "recurrence_id": value(event["RECURRENCE-ID"].dt) if "RECURRENCE-ID" in event else "",
        })
    todos = []
    for todo in calendar.walk("VTODO"):
        todos.append({
            "uid": text(todo, "UID"), "summary": text(todo, "SUMMARY"), "status": text(todo, "STATUS"),
            "due": value(todo["DUE"].dt) if "DUE" in todo else "",
            "priority": int(todo["PRIORITY"]) if "PRIORITY" in todo else 0,
        })
    occurrences = []
    first = datetime.datetime.fromisoformat(start).replace(tzinfo=datetime.timezone.utc)
    last = datetime.datetime.fromisoformat(stop).replace(tzinfo=datetime.timezone.utc)
    for occurrence in recurring_ical_events.of(calendar).between(first, last):
        if text(occurrence, "STATUS").upper() == "CANCELLED":
            continue
        occurrences.append({
            "uid": text(occurrence, "UID"), "summary": text(occurrence, "SUMMARY"),
            "start": value(occurrence["DTSTART"].dt),
        })
    key = lambda item: json.dumps(item, sort_keys=True)
    print(json.dumps({
        "events": sorted(events, key=key), "todos": sorted(todos, key=key),
        "occurrences": sorted(occurrences, key=key),
    }, sort_keys=True))


def write(path):
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Python icalendar peer//EN")
    calendar.add("version", "2.0")

    def event(uid, summary, start, end, **extra):
        item = icalendar.Event()
        item.add("uid", uid)
        item.add("dtstamp", datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc))
        item.add("summary", summary)
        item.add("dtstart", start)
        if end is not None:
            item.add("dtend", end)
        for name, content in extra.items():
            item.add(name.replace("_", "-"), content)
        calendar.add_component(item)
        return item

    event("py-berlin@example.com", "Review, part 1; notes", datetime.datetime(2026, 12, 1, 10, 0, tzinfo=berlin),
          datetime.datetime(2026, 12, 1, 11, 30, tzinfo=berlin), location="Room 4, floor 2",
          description="Line one\nLine two with ünïcödé and a long tail " + "→ more text " * 12)
    event("py-tokyo@example.com", "Call Tokyo", datetime.datetime(2026, 12, 2, 9, 0, tzinfo=tokyo),
          datetime.datetime(2026, 12, 2, 9, 45, tzinfo=tokyo))
    event("py-utc@example.com", "UTC sync", datetime.datetime(2026, 12, 3, 15, 0, tzinfo=datetime.timezone.utc),
          datetime.datetime(2026, 12, 3, 15, 30, tzinfo=datetime.timezone.utc))
    event("py-allday@example.com", "Conference", datetime.date(2026, 12, 7), datetime.date(2026, 12, 9))
    event("py-floating@example.com", "Lunch", datetime.datetime(2026, 12, 4, 12, 0), None,
          duration=datetime.timedelta(minutes=45))
    weekly = event("py-weekly@example.com", "Gym", datetime.datetime(2026, 11, 2, 18, 0, tzinfo=berlin),
                   datetime.datetime(2026, 11, 2, 19, 0, tzinfo=berlin),
                   rrule={"freq": "weekly", "byday": ["MO", "TH"], "count": 8})
    weekly.add("exdate", datetime.datetime(2026, 11, 9, 18, 0, tzinfo=berlin))
    todo = icalendar.Todo()
    todo.add("uid", "py-todo@example.com")
    todo.add("dtstamp", datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc))
    todo.add("summary", "Renew passport")
    todo.add("due", datetime.datetime(2026, 12, 10, 9, 0, tzinfo=berlin))
    todo.add("priority", 1)
    todo.add("status", "NEEDS-ACTION")
    calendar.add_component(todo)
    calendar.add_missing_timezones()
    open(path, "wb").write(calendar.to_ical())


def corpus():
    """The occurrences of every calendar of the corpus, each file read as if it were the only one (the
    time zones icalendar caches from one file's VTIMEZONEs are forgotten before the next)."""
    from icalendar.timezone import tzp

    folders = [
        ("icalendar", os.path.join(os.path.dirname(icalendar.__file__), "tests", "calendars")),
        ("icalendar", os.path.join(os.path.dirname(icalendar.__file__), "tests", "events")),
        ("recurring-ical-events", os.path.join(os.path.dirname(recurring_ical_events.__file__), "test", "calendars")),
    ]
    files = []
    for package, folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.ics"))):
            entry = {"package": package, "file": path, "name": os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)}
            tzp.use_zoneinfo()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
                    found = recurring_ical_events.of(calendar).between((2000, 1, 1), (2030, 1, 1))
                    entry["occurrences"] = sorted(
                        [text(item, "UID"), value(item["DTSTART"].dt)] for item in found
                        if text(item, "STATUS").upper() != "CANCELLED")
                except Exception as error:  # noqa: BLE001 - any refusal is recorded, not raised
                    entry["refused"] = "%s: %s" % (type(error).__name__, str(error).splitlines()[0][:200] if str(error) else "")
                try:
                    components = icalendar.Component.from_ical(open(path, "rb").read(), multiple=True)
                    entry["todos"] = sum(len(component.walk("VTODO")) for component in components)
                except Exception:  # noqa: BLE001
                    entry["todos"] = None
            files.append(entry)
    print(json.dumps({
        "versions": {name: importlib.metadata.version(name) for name in ("icalendar", "recurring-ical-events")},
        "files": files,
    }))


def rrules(start, rules):
    from dateutil.rrule import rrulestr

    first = datetime.datetime.strptime(start, "%Y%m%dT%H%M%S")
    found = []
    for rule in rules:
        occurrences = []
        for occurrence in rrulestr(rule, dtstart=first):
            if occurrence.year >= 2100 or len(occurrences) == 40:
                break
            occurrences.append(occurrence.strftime("%Y%m%dT%H%M%S"))
        found.append(occurrences)
    print(json.dumps(found))


def contents(paths):
    """Every property of every component icalendar reads in each file, as "/VCALENDAR/VEVENT|NAME;PARAMS|value"."""
    result = {}
    for path in paths:
        try:
            result[path] = entries_of(path)
        except Exception:  # noqa: BLE001 - a file icalendar cannot read
            result[path] = None
    print(json.dumps(result))


def entries_of(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        components = icalendar.Component.from_ical(open(path, "rb").read(), multiple=True)
    entries = []

    def walk(component, where):
        here = where + "/" + component.name
        for name, prop in component.property_items(recursive=False, sorted=False):
            if name in ("BEGIN", "END"):
                continue
            params = ";".join("%s=%s" % item for item in sorted(getattr(prop, "params", {}).items()))
            try:
                shown = prop.to_ical().decode("utf-8", "replace") if hasattr(prop, "to_ical") else str(prop)
            except Exception:  # noqa: BLE001 - a property icalendar keeps but cannot write back
                shown = "!" + repr(prop)
            entries.append("%s|%s;%s|%s" % (here, name, params, shown))
        for sub in component.subcomponents:
            walk(sub, here)

    for component in components:
        walk(component, "")
    return entries


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "corpus":
        corpus()
    elif sys.argv[1] == "rrule":
        rrules(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "contents":
        contents(sys.argv[2:])
    else:
        sys.exit("usage: icalendar_peer.py dump FILE FROM TO | write FILE | corpus | rrule DTSTART RULE… | contents FILE…")
