/// A day on the user's calendar (no zone: it is read in the user's zone).
struct LocalDay: Hashable, Comparable, Sendable {
    var year: Int
    var month: Int
    var day: Int

    /// `YYYY-MM-DD`.
    var text: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A time of day on the user's clock.
struct ClockTime: Hashable, Sendable {
    var hour: Int
    var minute: Int
    /// Whether the words said which half of the day ("9am", "21:00", "noon"): a bare "at 8" did not, so a
    /// part of the day may still move it ("at 8 in the evening").
    var settled: Bool

    /// `HH:MM:00`.
    var text: String {
        String(format: "%02d:%02d:00", hour, minute)
    }

    /// Minutes since midnight.
    var minutes: Int { hour * 60 + minute }
}

/// A part of the day, as the hours it spans.
enum PartOfDay: String, Sendable, CaseIterable {
    case morning, afternoon, evening, night

    /// The first hour and the hour after the last (24: midnight after).
    var hours: (start: Int, end: Int) {
        switch self {
        case .morning: (6, 12)
        case .afternoon: (12, 18)
        case .evening: (18, 24)
        case .night: (21, 24)
        }
    }

    /// A bare hour said with this part: "8 in the evening" is 20:00, "12 at night" 00:00.
    func hour(for hour: Int) -> Int {
        switch self {
        case .morning: hour == 12 ? 0 : hour
        case .afternoon, .evening: hour < 12 ? hour + 12 : hour
        case .night: hour == 12 ? 0 : (hour < 5 ? hour : (hour < 12 ? hour + 12 : hour))
        }
    }
}

/// What a date or time the user said means, in their zone.
enum TemporalValue: Hashable, Sendable {
    /// One whole day ("tomorrow", "friday", "december 24").
    case day(LocalDay)
    /// Whole days from the first to the last, both included ("this week", "from tuesday to thursday").
    case days(LocalDay, LocalDay)
    /// A time of day without a day ("at 9", "18:00"): today, or the day an earlier step named.
    case time(ClockTime)
    /// A day and a time ("tomorrow at 9am").
    case instant(LocalDay, ClockTime)
    /// From one time to another on a day ("thursday from 10 to 11"), the day not always said.
    case times(LocalDay?, ClockTime, ClockTime)
    /// A part of a day ("tomorrow morning", "in the afternoon"), the day not always said.
    case part(LocalDay?, PartOfDay)
    /// An ISO date-time as the user typed it ("2026-12-03T15:00"), passed on unchanged.
    case literal(String)
}

/// A date or time found in a request: where it is, the word that introduced it, and what it means.
struct TemporalMention: Hashable, Sendable {
    /// The words of the expression itself.
    var core: Range<Int>
    /// The word before it that says how it relates ("on", "at", "from", "until", "before"…), if any.
    var lead: String?
    /// What it means.
    var value: TemporalValue
    /// The unit word when it counts from now ("in 2 hours" → "hours"): a skill that takes the amount and the
    /// unit itself (clock.add) reads those words instead.
    var offsetUnit: String?
    /// The core words as typed.
    var text: String

    /// The words it takes, the lead included.
    var range: Range<Int> { (lead == nil ? core.lowerBound : core.lowerBound - 1)..<core.upperBound }

    /// How the lead relates the value to a skill's parameters.
    var role: DateRole? {
        guard let lead else { return nil }
        return DateRole(lead: lead)
    }
}

/// How a date parameter relates to a span of time, read from its name ("from", "due_before") or from the
/// word before a date ("until friday").
enum DateRole: Sendable, Equatable {
    /// The start of a span: `from`, `start`, "since", "after".
    case start
    /// The end of a span: `to`, `end`, "until", "through".
    case end
    /// A limit: `due_before`, "before", "by".
    case before
    /// One moment or day: `due`, `date`, `time`.
    case point

    /// The role a lead word gives; nil for words that only introduce a date ("on", "at").
    init?(lead: String) {
        switch lead {
        case "from", "since", "after", "starting": self = .start
        case "to", "until", "till", "til", "through", "thru": self = .end
        case "before", "by": self = .before
        default: return nil
        }
    }

    /// The role of a parameter, from its name.
    init(parameter name: String) {
        let lowered = name.lowercased()
        if lowered.contains("before") || lowered.contains("deadline") {
            self = .before
        } else if ["from", "start", "since", "begin", "after"].contains(where: { lowered.hasPrefix($0) }) {
            self = .start
        } else if ["to", "end", "until", "till"].contains(where: { lowered == $0 || lowered.hasPrefix($0 + "_") }) {
            self = .end
        } else {
            self = .point
        }
    }
}
