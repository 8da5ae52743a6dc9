"""The other side of the interop tests (Tests/ICalendarTests/InteropTests.swift): Python's `icalendar`
package reads and writes iCalendar files, `recurring_ical_events` expands recurrences.

  icalendar_peer.py dump FILE FROM TO   prints the file's events, to-dos and the occurrences between FROM and
                                        TO (YYYY-MM-DD, UTC midnight) as one JSON object
  icalendar_peer.py write FILE          writes a calendar built with icalendar's API

Values: "t:<seconds since the epoch>" for a time with a zone, "floating:YYYY-MM-DDTHH:MM:SS" without one,
"date:YYYY-MM-DD" for a date. "zone" is the TZID parameter, "UTC" for a UTC time, "" otherwise.
"""
import datetime
import json
import sys
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


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit("usage: icalendar_peer.py dump FILE FROM TO | write FILE")
