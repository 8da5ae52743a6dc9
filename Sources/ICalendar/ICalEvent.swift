/// A VEVENT read for listing: its text fields, start, end or duration, recurrence, and what of it could
/// not be read.
///
/// Read leniently: only a missing or unreadable DTSTART makes the event unreadable. Any other property
/// that cannot be read (DTEND, DURATION, an RRULE, one EXDATE or RDATE line) is left out and named in
/// ``skipped``; the event is listed without it.
public struct ICalEvent: Sendable {
    /// The component as read (everything it holds, including what this view ignores).
    public let component: ICalComponent
    public let uid: String?
    public let summary: String?
    public let location: String?
    public let notes: String?
    public let start: ICalDateValue
    public let end: ICalDateValue?
    public let duration: ICalDuration?
    /// The RRULEs (a component may carry several; their occurrences are joined).
    public let rules: [RecurrenceRule]
    /// RDATE dates and times.
    public let extraDates: [ICalDateValue]
    /// RDATE periods: occurrences with a length of their own.
    public let extraPeriods: [ICalPeriod]
    public let exceptionDates: [ICalDateValue]
    /// Set on an override of one occurrence of a recurring event.
    public let recurrenceID: ICalDateValue?
    /// Whether the override also applies to the occurrences after it (`RANGE=THISANDFUTURE`).
    public let isThisAndFuture: Bool
    /// SEQUENCE, the revision of the event; -1 when absent.
    public let sequence: Int
    /// `TRANSPARENT` events do not block time (RFC 5545 TRANSP).
    public let isTransparent: Bool
    public let isCancelled: Bool
    /// The properties left out because they cannot be read: each names its line, what and why.
    public let skipped: [ICalendarError]

    /// The first RRULE.
    public var rule: RecurrenceRule? { rules.first }

    /// Reads a VEVENT.
    /// - Throws: ``ICalendarError`` at the event's line when DTSTART is missing, at DTSTART's line when
    ///   it is not a date or date-time, and at RECURRENCE-ID's when that is not one.
    public init(_ component: ICalComponent) throws(ICalendarError) {
        self.component = component
        guard let startLine = component.property("DTSTART") else {
            throw ICalendarError(
                line: component.line, column: 1, message: "\(component.name) has no DTSTART",
                remedy: "add DTSTART (e.g. DTSTART:20261201T090000Z) to the event")
        }
        start = try ICalDateValue(startLine)
        let recurrenceLine = component.property("RECURRENCE-ID")
        recurrenceID = try recurrenceLine.map { line throws(ICalendarError) in try ICalDateValue(line) }
        isThisAndFuture = recurrenceLine?.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        var skipped: [ICalendarError] = []
        func lenient<Value>(_ read: () throws(ICalendarError) -> Value) -> Value? {
            do {
                return try read()
            } catch {
                skipped.append(
                    ICalendarError(
                        line: error.line, column: error.column, message: "skipped \(error.message)", remedy: error.remedy))
                return nil
            }
        }
        end = component.property("DTEND").flatMap { line in lenient { () throws(ICalendarError) in try ICalDateValue(line) } }
        duration = component.property("DURATION").flatMap { line in
            lenient { () throws(ICalendarError) in
                guard let value = ICalDuration(line.value) else {
                    throw ICalendarError(
                        line: line.line, column: 10, message: "DURATION \"\(line.value)\" is not a duration",
                        remedy: "write it as PT1H30M, P1D or P1W")
                }
                return value
            }
        }
        rules = component.properties(named: "RRULE").compactMap { line in
            lenient { () throws(ICalendarError) -> RecurrenceRule? in
                // An empty RRULE (a holidays feed writes `RRULE:`) repeats nothing.
                line.value.allSatisfy { $0 == " " || $0 == "\t" } ? nil : try RecurrenceRule(line)
            } ?? nil
        }
        var dates: [ICalDateValue] = []
        var periods: [ICalPeriod] = []
        for line in component.properties(named: "RDATE") where !line.value.trimmingSpaces.isEmpty {
            if line.parameter("VALUE")?.uppercased() == "PERIOD" || line.value.contains("/") {
                periods += lenient { () throws(ICalendarError) in try ICalPeriod.list(line) } ?? []
            } else {
                dates += lenient { () throws(ICalendarError) in try ICalDateValue.list(line) } ?? []
            }
        }
        extraDates = dates
        extraPeriods = periods
        var exceptions: [ICalDateValue] = []
        for line in component.properties(named: "EXDATE") {
            exceptions += lenient { () throws(ICalendarError) in try ICalDateValue.list(line) } ?? []
        }
        exceptionDates = exceptions
        uid = component.property("UID")?.value.trimmingSpaces
        summary = component.property("SUMMARY")?.text
        location = component.property("LOCATION")?.text
        notes = component.property("DESCRIPTION")?.text
        sequence = component.property("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? -1
        isTransparent = component.property("TRANSP")?.value.trimmingSpaces.uppercased() == "TRANSPARENT"
        isCancelled = component.property("STATUS")?.value.trimmingSpaces.uppercased() == "CANCELLED"
        self.skipped = skipped
    }

    /// Whether the component carries recurrence parts (RRULE, RDATE or EXDATE), readable or not.
    var hasRecurrenceParts: Bool {
        component.properties.contains { $0.name == "RRULE" || $0.name == "RDATE" || $0.name == "EXDATE" }
    }

    /// The line of DTSTART, for messages about the start.
    var startLine: Int { component.property("DTSTART")?.line ?? component.line }

    /// A name for the event in messages: its title, else its UID.
    var shownName: String { "\"\(summary ?? uid ?? "event")\"" }
}

/// One occurrence of an event: its instants and the event it comes from.
public struct ICalOccurrence: Sendable {
    /// The component whose fields the occurrence shows: the event, the override that replaces this
    /// occurrence, or the `RANGE=THISANDFUTURE` override in force.
    public let event: ICalEvent
    /// Seconds since the epoch.
    public let start: Int64
    public let end: Int64
    /// The wall-clock start in the event's own zone.
    public let localStart: CivilDateTime
    /// The zone the event's times are in (`UTC`, a TZID, or the floating zone's id).
    public let zone: String
}

extension ICalEvent {
    /// The occurrences that overlap `range` (seconds since the epoch), in order: the event itself, or
    /// for a recurring event its RRULE and RDATE instances without the EXDATE ones (the event taken
    /// alone, without the overrides other components of its UID may hold).
    public func occurrences(overlapping range: Range<Int64>, zones: ICalZoneCatalog) -> [ICalOccurrence] {
        var warning: String?
        return EventSeries(core: self, modifications: []).occurrences(
            overlapping: range, zones: zones, bounded: false, warning: &warning)
    }

    /// The most occurrences of one event that began before a range and last into it which
    /// ``ICalendarDocument/occurrences(in:zones:warnings:)`` lists: the latest ones. Only an event whose
    /// occurrences last longer than thousands of its recurrence intervals has more (found by fuzzing: a
    /// weekly event from the year 1013 to 2026 has 52,800 occurrences lasting into 2026).
    public static let carriedOccurrenceLimit = 1_000
}
