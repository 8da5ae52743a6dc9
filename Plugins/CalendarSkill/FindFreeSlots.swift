import Foundation
import ICalendar
import SkillSDK

/// `calendar.find_free_slots`: the gaps between events inside working hours.
struct FindFreeSlots: Skill {
    struct Arguments: Decodable {
        var date: String?
        var from: String?
        var to: String?
        var part_of_day: String?
        var working_hours_start: String?
        var working_hours_end: String?
        var min_minutes: Int?
    }

    struct Slot: Encodable {
        var start: String
        var end: String
        var minutes: Int
    }

    struct Output: Encodable {
        var slots: [Slot]
        var count: Int
        /// The first slot as "10:00–11:30 on 2026-12-01", or "none".
        var first_slot: String
        /// "1 free slot, 09:00–12:00 on 2026-12-01", "3 free slots, the first 09:00–09:30 on 2026-12-01", or
        /// "no free slot of 30 minutes or more", for the summary.
        var free_text: String
        var from: String
        var to: String
        var busy_events: Int
        /// What was read past in the file (as calendar.list_events reports it): its events may be missing.
        var warnings: [String]
    }

    static let partsOfDay = ["morning", "afternoon", "evening", "working hours"]

    let name = "find_free_slots"
    let title = "Find free time in the calendar"
    let description = """
        Finds free slots in the user's calendar: the gaps between events within working hours (09:00–17:00 \
        unless given) on a day or over a range, optionally only the morning (until 12:00), afternoon or evening, \
        at least min_minutes long (30 by default). Free time already past is left out. Use it before adding \
        something at a free time. Not for listing the events themselves (use calendar.list_events), not for \
        adding events (use calendar.create_event) or reminders (use reminders.add).
        """
    let parameters = ParameterSchema.object(
        [
            "date": .string("The day to look at, e.g. 2026-12-01; today if no date or range is given", format: "date"),
            "part_of_day": .string("Only this part of the day", oneOf: partsOfDay),
            "from": CalendarSchema.dateTime("Start of a range of days, instead of date"),
            "to": CalendarSchema.dateTime("End of the range (a date includes that day)"),
            "working_hours_start": .string("When the working day starts, HH:MM (default 09:00)",
                                           pattern: CalendarSchema.clockPattern),
            "working_hours_end": .string("When the working day ends, HH:MM (default 17:00)",
                                         pattern: CalendarSchema.clockPattern),
            "min_minutes": .integer("Shortest slot worth reporting, in minutes (default 30)", minimum: 5, maximum: 720),
        ], required: [])
    let timeout = 10.0
    let summary: String? = "Found {free_text}."
    let examples = [
        "check {date} {part_of_day} in my calendar for a free slot", "find a free slot {date} {part_of_day}",
        "when am I free {date}", "find free time in my calendar {date}", "am I free {date} {part_of_day}",
        "free slots {date}", "find a free slot in my calendar", "check my calendar for a free slot {date}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let settings = try CalendarSettings(context)
        let zone = settings.zone
        let now = Int64(Date().timeIntervalSince1970)
        if arguments.date != nil, arguments.from != nil || arguments.to != nil {
            throw SkillError.invalidArguments(
                field: "/date", message: "both date and a from/to range are given", remedy: "give one of them")
        }
        let dayStart = try minutes(arguments.working_hours_start ?? "09:00", field: "/working_hours_start")
        let dayEnd = try minutes(arguments.working_hours_end ?? "17:00", field: "/working_hours_end")
        guard dayEnd > dayStart else {
            throw SkillError.invalidArguments(
                field: "/working_hours_end", message: "working hours end at or before they start",
                remedy: "give an end later than the start, e.g. 09:00 to 17:00")
        }
        // The part of each day to look at, in minutes after midnight.
        let window: (Int, Int)
        switch arguments.part_of_day {
        case "morning"?: window = (dayStart, max(dayStart, min(dayEnd, 12 * 60)))
        case "afternoon"?: window = (max(dayStart, 12 * 60), max(dayEnd, 12 * 60))
        case "evening"?: window = (max(dayEnd, 17 * 60), 21 * 60)
        default: window = (dayStart, dayEnd)
        }
        var from: Int64
        var to: Int64
        if let date = arguments.date {
            guard case .date(let day)? = ISOTimeText.parse(date) else {
                throw SkillError.invalidArguments(
                    field: "/date", message: "\"\(date)\" is not a date", remedy: "write it as 2026-12-01")
            }
            from = zone.utcSeconds(forLocal: day)
            to = zone.utcSeconds(forLocal: day.adding(days: 1))
        } else {
            from = try arguments.from.map { text throws(SkillError) in try settings.instant(text, field: "/from") }
                ?? zone.utcSeconds(forLocal: zone.local(atUTC: now).startOfDay)
            to = try arguments.to.map { text throws(SkillError) in
                try settings.instant(text, field: "/to", endOfDay: true)
            } ?? zone.utcSeconds(forLocal: zone.local(atUTC: from).startOfDay.adding(days: 1))
        }
        guard to > from else {
            throw SkillError.invalidArguments(field: "/to", message: "the range ends before it starts",
                                              remedy: "give a to after from")
        }
        guard to - from <= 62 * 86_400 else {
            throw SkillError.invalidArguments(field: "/to", message: "the range is longer than 62 days",
                                              remedy: "look at two months or less at a time")
        }
        let (document, zones) = try settings.read()
        var warnings: [String] = []
        let busy = document.occurrences(in: from..<to, zones: zones, warnings: &warnings).filter { !$0.event.isTransparent }
        let shortest = Int64((arguments.min_minutes ?? 30) * 60)
        var slots: [(Int64, Int64)] = []
        var day = zone.local(atUTC: from).startOfDay
        while zone.utcSeconds(forLocal: day) < to {
            try context.checkCancellation()
            var cursor = max(from, now, zone.utcSeconds(forLocal: at(day, window.0)))
            let close = min(to, zone.utcSeconds(forLocal: at(day, window.1)))
            for event in busy where event.end > cursor && event.start < close {
                if event.start - cursor >= shortest { slots.append((cursor, event.start)) }
                cursor = max(cursor, event.end)
            }
            if close - cursor >= shortest { slots.append((cursor, close)) }
            day = day.adding(days: 1)
        }
        let first = slots.first.map { slot in
            "\(ISOTimeText.clock(slot.0, in: zone))–\(ISOTimeText.clock(slot.1, in: zone)) on "
                + zone.local(atUTC: slot.0).dateText
        }
        let freeText: String
        switch (slots.count, first) {
        case (1, let first?): freeText = "1 free slot, \(first)"
        case (_, let first?): freeText = "\(slots.count) free slots, the first \(first)"
        default: freeText = "no free slot of \(shortest / 60) minutes or more"
        }
        return Output(
            slots: slots.map { Slot(start: settings.text($0.0), end: settings.text($0.1), minutes: Int($0.1 - $0.0) / 60) },
            count: slots.count, first_slot: first ?? "none", free_text: freeText, from: settings.text(from),
            to: settings.text(to), busy_events: busy.count, warnings: settings.file.warnings(warnings))
    }

    private func at(_ day: CivilDateTime, _ minutes: Int) -> CivilDateTime {
        minutes >= 24 * 60
            ? day.adding(days: 1) : CivilDateTime(year: day.year, month: day.month, day: day.day,
                                                  hour: minutes / 60, minute: minutes % 60)
    }

    private func minutes(_ text: String, field: String) throws(SkillError) -> Int {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour),
            (0...59).contains(minute)
        else {
            throw SkillError.invalidArguments(field: field, message: "\"\(text)\" is not a clock time",
                                              remedy: "write it as HH:MM, e.g. 09:00")
        }
        return hour * 60 + minute
    }
}
