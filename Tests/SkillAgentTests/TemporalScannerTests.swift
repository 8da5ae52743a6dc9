import Foundation
import JSONSchema
import SkillJSON
import Testing

@testable import SkillAgent

/// The dates and times in requests, read in any word order against "now" (Monday 2026-11-30 17:00,
/// Europe/Berlin), and what is not one.
@Suite struct TemporalScannerTests {
    static let calendar = TemporalCalendar(now: OfflinePlannerCorpusTests.now, timeZone: OfflinePlannerCorpusTests.zone)
    static let scanner = TemporalScanner(calendar: calendar)

    static func day(_ text: String) -> LocalDay {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return LocalDay(year: parts[0], month: parts[1], day: parts[2])
    }

    static func time(_ hour: Int, _ minute: Int = 0) -> ClockTime { ClockTime(hour: hour, minute: minute, settled: true) }

    /// The one mention in `text` (its value), or nil when there is not exactly one.
    static func value(_ text: String) -> TemporalValue? {
        let mentions = scanner.mentions(in: text.split(separator: " ").map(String.init))
        return mentions.count == 1 ? mentions[0].value : nil
    }

    @Test func aDayAndATimeInAnyOrderAreOneMoment() {
        let friday3pm = TemporalValue.instant(Self.day("2026-12-04"), Self.time(15))
        for text in ["friday at 3pm", "at 3pm on friday", "3pm friday", "on friday at 3 pm", "friday 15:00", "at 15:00 friday"] {
            #expect(Self.value(text) == friday3pm, "\(text)")
        }
        let monday8 = TemporalValue.instant(Self.day("2026-12-07"), ClockTime(hour: 8, minute: 0, settled: false))
        #expect(Self.value("next monday at 8") == monday8)
        #expect(Self.value("at 8am next monday") == .instant(Self.day("2026-12-07"), Self.time(8)))
        #expect(Self.value("tomorrow at 8 in the evening") == .instant(Self.day("2026-12-01"), Self.time(20)))
        #expect(Self.value("at 8 tonight") == .instant(Self.day("2026-11-30"), Self.time(20)))
        #expect(Self.value("half past 9 tomorrow") == .instant(Self.day("2026-12-01"), ClockTime(hour: 9, minute: 30, settled: false)))
    }

    @Test func daysAndSpans() {
        #expect(Self.value("this friday") == .day(Self.day("2026-12-04")))
        #expect(Self.value("monday") == .day(Self.day("2026-12-07")), "today is Monday: a bare weekday is the next one")
        #expect(Self.value("this monday") == .day(Self.day("2026-11-30")))
        #expect(Self.value("last friday") == .day(Self.day("2026-11-27")))
        #expect(Self.value("the 31st") == .day(Self.day("2026-12-31")), "November has no 31st")
        #expect(Self.value("christmas eve") == .day(Self.day("2026-12-24")))
        #expect(Self.value("new year's day") == .day(Self.day("2027-01-01")))
        #expect(Self.value("this week") == .days(Self.day("2026-11-30"), Self.day("2026-12-06")))
        #expect(Self.value("next weekend") == .days(Self.day("2026-12-12"), Self.day("2026-12-13")))
        #expect(Self.value("next month") == .days(Self.day("2026-12-01"), Self.day("2026-12-31")))
        #expect(Self.value("the rest of the week") == .days(Self.day("2026-11-30"), Self.day("2026-12-06")))
        #expect(Self.value("from friday to monday") == .days(Self.day("2026-12-04"), Self.day("2026-12-07")))
        #expect(Self.value("tomorrow morning") == .part(Self.day("2026-12-01"), .morning))
        let (ten, eleven) = (ClockTime(hour: 10, minute: 0, settled: false), ClockTime(hour: 11, minute: 0, settled: false))
        #expect(Self.value("thursday from 10 to 11") == .times(Self.day("2026-12-03"), ten, eleven))
        #expect(Self.value("2 to 3pm") == .times(nil, Self.time(14), Self.time(15)))
        let since = Self.scanner.mentions(in: ["since", "january", "1"])
        #expect(since.first?.value == .day(Self.day("2026-01-01")))
        #expect(since.first?.lead == "since")
    }

    @Test func offsetsCountFromNowAndSayTheirUnit() {
        let hours = Self.scanner.mentions(in: ["in", "2", "hours"])
        #expect(hours.first?.value == .instant(Self.day("2026-11-30"), Self.time(19)))
        #expect(hours.first?.offsetUnit == "hours")
        #expect(Self.value("in a week") == .day(Self.day("2026-12-07")))
        #expect(Self.value("3 days from now") == .day(Self.day("2026-12-03")))
    }

    @Test func wordsThatAreNoDateStayWords() {
        for text in [
            "february 30", "at 25:00", "13pm", "may I", "the cat sat on the mat", "count to 10", "in 2 sentences", "3 to 5",
            "good morning", "2026-02-30", "2026-13-01", "room 9", "sat", "march on", "9:60", "at", "the 32nd", "555-1234", "",
        ] {
            #expect(Self.scanner.mentions(in: text.split(separator: " ").map(String.init)).isEmpty, "\(text)")
        }
        // Quoted text and text after a colon are the user's text.
        let quoted = PlannerClause("summarize \"see you tomorrow at 9\"", scanner: Self.scanner)
        #expect(quoted.mentions.isEmpty)
        let colon = PlannerClause("count the words in this: meet friday at 3pm", scanner: Self.scanner)
        #expect(colon.mentions.isEmpty)
    }

    @Test func timesCarryTheOffsetOfTheirDay() {
        // Berlin is UTC+1 in winter and UTC+2 from the last Sunday of March.
        #expect(Self.calendar.dateTime(Self.day("2026-12-01"), Self.time(9)) == "2026-12-01T09:00:00+01:00")
        #expect(Self.calendar.dateTime(Self.day("2027-04-01"), Self.time(9)) == "2027-04-01T09:00:00+02:00")
        let utc = TemporalCalendar(now: OfflinePlannerCorpusTests.now, timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.dateTime(Self.day("2027-04-01"), Self.time(9)) == "2027-04-01T09:00:00Z")
        let newYork = TemporalCalendar(now: OfflinePlannerCorpusTests.now, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.dateTime(Self.day("2026-12-01"), Self.time(9)) == "2026-12-01T09:00:00-05:00")
    }
}

/// Whatever is typed, the planner neither crashes nor calls a skill with arguments its schema refuses,
/// and no date it read ends in a title.
@Suite struct OfflinePlannerRobustnessTests {
    static let words = [
        "remind", "me", "to", "call", "mom", "tomorrow", "at", "9", "9am", "on", "friday", "next", "monday", "from", "10",
        "to", "11", "this", "week", "weekend", "in", "the", "morning", "2", "hours", "what's", "my", "calendar", "free",
        "am", "I", "schedule", "a", "dentist", "list", "reminders", "files", "read", "todo.txt", "notes/", "search", "for",
        "budget", "time", "is", "it", "Tokyo", "Paris", "New", "York", "convert", "14:00", "how", "many", "days", "until",
        "christmas", "since", "january", "1", "december", "25", "2026-02-30", "2026-12-01T10:00", "25:00", "13pm", "the 31st",
        "between", "and", ",", "then", "\"quoted", "text\"", "summarize", "this:", "ünïcödé", "😀", "-", "0", "24", "half",
        "past", "quarter", "tonight", "ago", "last", "later", "sometime", "due", "before", "by", "add", "event", "uptime",
    ]

    @Test func randomRequestsPlanOnlyValidArguments() async throws {
        let tools = try await BuiltSkills.tools()
        let schemas = try Dictionary(uniqueKeysWithValues: tools.map { ($0.name, try Schema(compiling: $0.tool.parameters)) })
        let planner = OfflinePlannerCorpusTests.planner
        var generator = SeededGenerator(seed: 29)
        for _ in 0..<600 {
            let count = generator.below(12) + 1
            let sentence = (0..<count).map { _ in generator.pick(Self.words) }.joined(separator: " ")
            let plan = planner.plan(sentence, tools: tools)
            for step in plan.steps {
                let errors = schemas[step.toolName]?.validate(step.arguments) ?? []
                #expect(errors.isEmpty, "\(sentence) → \(step.toolName) \(step.arguments.serialized()): \(errors)")
                // A skill that takes a date gets it in its date parameter, never in a title (a title that names an
                // existing reminder, reminders.complete, is the user's text).
                let dated = tools.first { $0.name == step.toolName }.map { !DateParameter.all(of: $0).isEmpty } ?? false
                if dated, let title = step.arguments["title"]?.stringValue {
                    let clause = PlannerClause(title, scanner: TemporalScanner(calendar: planner.calendar))
                    #expect(clause.mentions.isEmpty, "\(sentence) → title \"\(title)\"")
                }
            }
        }
    }
}
