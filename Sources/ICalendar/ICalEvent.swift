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
        // One pass over the properties: the first of each single one, every RRULE, RDATE and EXDATE.
        var first: [String: ContentLine] = [:]
        var ruleLines: [ContentLine] = []
        var dateLines: [ContentLine] = []
        var exceptionLines: [ContentLine] = []
        for property in component.properties {
            switch property.name {
            case "RRULE": ruleLines.append(property)
            case "RDATE": dateLines.append(property)
            case "EXDATE": exceptionLines.append(property)
            case "DTSTART", "DTEND", "DURATION", "RECURRENCE-ID", "UID", "SUMMARY", "LOCATION", "DESCRIPTION",
                "SEQUENCE", "TRANSP", "STATUS":
                if first[property.name] == nil { first[property.name] = property }
            default: break
            }
        }
        guard let startLine = first["DTSTART"] else {
            throw ICalendarError(
                line: component.line, column: 1, message: "\(component.name) has no DTSTART",
                remedy: "add DTSTART (e.g. DTSTART:20261201T090000Z) to the event")
        }
        start = try ICalDateValue(startLine)
        let recurrenceLine = first["RECURRENCE-ID"]
        recurrenceID = try recurrenceLine.map { line throws(ICalendarError) in try ICalDateValue(line) }
        isThisAndFuture = recurrenceLine?.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
        var skipped: [ICalendarError] = []
        func note(_ error: ICalendarError) { skipped.append(error.skipping) }
        var end: ICalDateValue?
        if let line = first["DTEND"] {
            do { end = try ICalDateValue(line) } catch { note(error) }
        }
        self.end = end
        var duration: ICalDuration?
        if let line = first["DURATION"] {
            duration = ICalDuration(line.value)
            if duration == nil {
                note(
                    ICalendarError(
                        line: line.line, column: 10, message: "DURATION \"\(line.value)\" is not a duration",
                        remedy: "write it as PT1H30M, P1D or P1W"))
            }
        }
        self.duration = duration
        var rules: [RecurrenceRule] = []
        // An empty RRULE (a holidays feed writes `RRULE:`) repeats nothing.
        for line in ruleLines where !line.value.trimmingSpaces.isEmpty {
            do { rules.append(try RecurrenceRule(line)) } catch { note(error) }
        }
        self.rules = rules
        var dates: [ICalDateValue] = []
        var periods: [ICalPeriod] = []
        for line in dateLines where !line.value.trimmingSpaces.isEmpty {
            do {
                if line.parameter("VALUE")?.uppercased() == "PERIOD" || line.value.contains("/") {
                    periods += try ICalPeriod.list(line)
                } else {
                    dates += try ICalDateValue.list(line)
                }
            } catch {
                note(error)
            }
        }
        extraDates = dates
        extraPeriods = periods
        var exceptions: [ICalDateValue] = []
        for line in exceptionLines {
            do { exceptions += try ICalDateValue.list(line) } catch { note(error) }
        }
        exceptionDates = exceptions
        uid = first["UID"]?.value.trimmingSpaces
        summary = first["SUMMARY"]?.text
        location = first["LOCATION"]?.text
        notes = first["DESCRIPTION"]?.text
        sequence = first["SEQUENCE"].flatMap { Int($0.value.trimmingSpaces) } ?? -1
        isTransparent = first["TRANSP"]?.value.trimmingSpaces.uppercased() == "TRANSPARENT"
        isCancelled = first["STATUS"]?.value.trimmingSpaces.uppercased() == "CANCELLED"
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
