import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// Offline answers say what a result holds: the items of its arrays (first few, then "and N more") with
/// their times in the user's zone, and a file's text — not only a count.
@Suite struct ResultListingTests {
    static let listing = ResultListing(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    @Test func eventsShowTitlesAndTimesInTheUsersZone() {
        let result: JSONValue = [
            "count": 3,
            "events": [
                ["title": "Dentist", "start": "2026-12-04T15:00:00+01:00", "end": "2026-12-04T16:00:00+01:00", "location": "Main St"],
                ["title": "Standup", "start": "2026-12-05T08:00:00Z", "end": "2026-12-05T08:15:00Z"],
                ["title": "Holiday", "start": "2026-12-24", "end": "2026-12-27", "all_day": true],
                ["title": "Birthday", "start": "2026-12-28", "end": "2026-12-29", "all_day": true],
            ],
        ]
        #expect(
            Self.listing.lines(for: result, after: "3 events.") == [
                "  - Dentist — Fri 2026-12-04 15:00–16:00 (at Main St)",
                "  - Standup — Sat 2026-12-05 09:00–09:15",
                "  - Holiday — Thu 2026-12-24 – Sat 2026-12-26",
                "  - Birthday — Mon 2026-12-28",
            ])
    }

    @Test func remindersMatchesEntriesAndSlots() {
        let reminders: JSONValue = [
            "reminders": [
                ["title": "pay rent", "due": "2026-12-04", "done": false],
                ["title": "call mom", "due": "2026-12-04T08:00:00Z", "priority": "high", "done": true],
            ]
        ]
        #expect(
            Self.listing.lines(for: reminders, after: "2 reminders (open).") == [
                "  - pay rent — due Fri 2026-12-04", "  - call mom — due Fri 2026-12-04 09:00 (done, high priority)",
            ])
        let matches: JSONValue = ["matches": [["path": "notes/todo.txt", "line_number": 2, "line": "call the bank"], ["path": "a.md"]]]
        #expect(Self.listing.lines(for: matches, after: "2 matches.") == ["  - notes/todo.txt, line 2: call the bank", "  - a.md"])
        let entries: JSONValue = ["entries": [["name": "notes", "type": "directory"], ["name": "a.txt", "type": "file", "size": 3]]]
        #expect(Self.listing.lines(for: entries, after: "2 entries.") == ["  - notes/", "  - a.txt"])
        let slots: JSONValue = ["slots": [["start": "2026-12-04T09:00:00+01:00", "end": "2026-12-04T12:00:00+01:00", "minutes": 180]]]
        #expect(Self.listing.lines(for: slots, after: "Found 1 free slot.") == ["  - Fri 2026-12-04 09:00–12:00 (180 min)"])
        #expect(Self.listing.lines(for: slots, after: "Found 1 free slot, 09:00–12:00 on 2026-12-04.").isEmpty)
    }

    @Test func longListsEndWithHowManyMore() {
        let result: JSONValue = ["items": .array((1...8).map { .string("item \($0)") })]
        let lines = Self.listing.lines(for: result, after: "8 items.")
        #expect(lines.count == 6)
        #expect(lines.first == "  - item 1")
        #expect(lines.last == "  - and 3 more")
    }

    @Test func whatTheSentenceAlreadyNamesIsNotRepeated() {
        let keywords: JSONValue = ["summary": "apples, pears", "keywords": [["keyword": "apples", "count": 2], ["keyword": "pears", "count": 1]]]
        #expect(Self.listing.lines(for: keywords, after: "Keywords: apples, pears.").isEmpty)
        #expect(Self.listing.lines(for: ["count": 0, "events": []], after: "0 events.").isEmpty)
        let summary: JSONValue = ["summary": "A. B.", "sentences": ["A.", "B."], "sentence_indices": [0, 2], "original_sentences": 3]
        #expect(Self.listing.lines(for: summary, after: "In 2 of 3 sentences: A. B.", template: "In {sentences.count} of …").isEmpty)
        #expect(Self.listing.lines(for: "just text", after: "x").isEmpty)
    }

    @Test func aFilesTextIsShownLineByLine() {
        let text = (1...15).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let lines = Self.listing.lines(for: ["path": "a.txt", "text": .string(text)], after: "Read 90 bytes of a.txt.")
        #expect(lines.count == 13)
        #expect(lines.first == "  line 1")
        #expect(lines.last == "  … 3 more lines")
    }

    @Test func timesThatAreNotTimesStayAsTheyAre() {
        #expect(Self.listing.moment("tomorrow") == "tomorrow")
        #expect(Self.listing.moment("2026-13-01") == "2026-13-01")
        #expect(Self.listing.moment("2026-12-01T10:00") == "2026-12-01T10:00", "no offset: whose clock is unknown")
        #expect(Self.listing.moment("2026-12-01T10:00:00.250-05:00") == "Tue 2026-12-01 16:00")
    }
}
