import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// A skill's manifest `summary` template turns its result into a sentence; a result that lacks a field
/// the template names gets the generic key/value summary instead.
@Suite struct ResultSummaryTemplateTests {
    static let reading: JSONValue = [
        "iso8601": "2026-11-30T00:39:56+09:00", "date": "2026-11-30", "time": "00:39", "weekday": "Monday",
        "timezone": "Asia/Tokyo", "is_dst": false, "offset_hours": 9, "note": .null,
    ]

    @Test func fillsTopLevelFields() {
        let template = ResultSummaryTemplate("It is {time} on {weekday}, {date} ({timezone}).")
        #expect(template.render(Self.reading) == "It is 00:39 on Monday, 2026-11-30 (Asia/Tokyo).")
        #expect(ResultSummaryTemplate("DST: {is_dst}, UTC+{offset_hours}").render(Self.reading) == "DST: no, UTC+9")
    }

    @Test func aPluralSlotAgreesWithItsNumber() {
        let result: JSONValue = ["one": 1, "three": 3, "none": 0, "items": ["a", "b"], "text": "x"]
        #expect(ResultSummaryTemplate("{one|event|events}, {three|event|events}").render(result) == "1 event, 3 events")
        #expect(ResultSummaryTemplate("{none|match|matches} in {items.count|file|files}.").render(result) == "0 matches in 2 files.")
        #expect(ResultSummaryTemplate("{three|entry|entries} ({text})").render(result) == "3 entries (x)")
        // Not a plural slot: kept as written; a missing field still makes the template unusable.
        #expect(ResultSummaryTemplate("{one|event} {one||x}").render(result) == "{one|event} {one||x}")
        #expect(ResultSummaryTemplate("{gone|a|b}").render(result) == nil)
    }

    @Test func aMissingOrNullFieldMakesTheTemplateUnusable() {
        #expect(ResultSummaryTemplate("It is {time} in {city}.").render(Self.reading) == nil)
        #expect(ResultSummaryTemplate("Note: {note}").render(Self.reading) == nil)
        #expect(ResultSummaryTemplate("{time}").render(["00:39"]) == nil, "a result that is not an object")
        #expect(ResultSummaryTemplate("{date.year}").render(Self.reading) == nil, "a path through a string")
    }

    @Test func lineFallsBackToTheKeyValueSummaryWhenAFieldIsMissing() {
        let fallback = ResultSummary.line(for: Self.reading)
        #expect(fallback.hasPrefix("iso8601: 2026-11-30T00:39:56+09:00, date: 2026-11-30"))
        #expect(ResultSummary.line(for: Self.reading, template: "It is {time} in {city}.") == fallback)
        #expect(ResultSummary.line(for: Self.reading, template: nil) == fallback)
        #expect(ResultSummary.line(for: Self.reading, template: "It is {time}.") == "It is 00:39.")
        #expect(ResultSummary.templated(Self.reading, template: "It is {time} in {city}.") == nil)
    }

    @Test func dottedPathsIndexesAndCounts() {
        let result: JSONValue = [
            "owner": ["name": "Ada", "address": ["city": "London"]],
            "items": ["a", "b", "c"], "tags": [:], "stats": ["count": 7, "other": 1],
        ]
        #expect(ResultSummaryTemplate("{owner.address.city}, {items.count} items, first {items.0}").render(result)
            == "London, 3 items, first a")
        #expect(ResultSummaryTemplate("{stats.count} (member wins), {owner.count} members").render(result)
            == "7 (member wins), 2 members")
        #expect(ResultSummaryTemplate("{items.3}").render(result) == nil)
    }

    @Test func objectsAndArraysAreRenderedCompactly() {
        let result: JSONValue = [
            "top_words": [["word": "hello", "count": 2], ["word": "world", "count": 1]],
            "owner": ["name": "Ada", "age": 36], "size": ["width": 3, "height": 4],
            "letters": ["a", "b", "c", "d", "e", "f", "g"], "empty": [], "nested": [[1, 2], ["k": 1]],
        ]
        let template = ResultSummaryTemplate("{top_words} | {owner} | {size} | {letters} | {empty} | {nested}")
        #expect(template.render(result) == "hello (2), world (1) | Ada | width: 3, height: 4 | a, b, c, d, e and 2 more | none | 2 items, (k: 1)")
    }

    @Test func bracesThatAreNotSlotsStayAsWritten() {
        #expect(ResultSummaryTemplate("{{time}} is {time}; {not a slot} {} {").render(Self.reading) == "{time} is 00:39; {not a slot} {} {")
        #expect(ResultSummaryTemplate("}} and }").render(Self.reading) == "} and }")
    }

    @Test func longOrMultiLineSentencesAreCutToOneLine() {
        let line = ResultSummary.line(for: ["text": .string(String(repeating: "word ", count: 60))], template: "Said:\n{text}", limit: 40)
        #expect(line.count == 40)
        #expect(line.hasPrefix("Said: word"))
        #expect(line.hasSuffix("…"))
    }
}

/// The template reaches the call cards (`SkillCallInfo`, `--json` summary) and the offline answer.
@Suite struct ResultSummaryInTurnsTests {
    static func agent(_ backend: InMemorySkillBackend) -> Agent {
        let provider = OfflineProvider(now: { Date(timeIntervalSince1970: 1_770_710_400) }, timeZone: TimeZone(identifier: "UTC")!)
        return Agent(provider: provider, backend: backend)
    }

    static func withSummary(_ skill: InMemorySkillBackend.Skill, _ summary: String) -> InMemorySkillBackend.Skill {
        var copy = skill
        copy.tool.summary = summary
        return copy
    }

    @Test func cardsAndTheOfflineAnswerUseTheTemplate() async {
        let backend = TestSkills.backend(
            Self.withSummary(TestSkills.clockNow, "It is {time} in {timezone}."),
            Self.withSummary(TestSkills.countWords, "{words} words."))
        let all = await events(of: Self.agent(backend), "What time is it in Asia/Tokyo, then count the words in hello big world")
        #expect(all.answer == "- It is 2026-02-10T10:00:00+09:00 in Asia/Tokyo.\n- 3 words.")
        let cards = all.compactMap { event -> String? in
            guard case .skillSucceeded(let info, let result, _) = event else { return nil }
            return info.summary(of: result)
        }
        #expect(cards == ["It is 2026-02-10T10:00:00+09:00 in Asia/Tokyo.", "3 words."])
        let jsonSummaries = all.compactMap { event -> JSONValue? in
            guard case .skillSucceeded = event else { return nil }
            return event.jsonValue["summary"]
        }
        #expect(jsonSummaries == ["It is 2026-02-10T10:00:00+09:00 in Asia/Tokyo.", "3 words."])
    }

    @Test func aTemplateWhoseFieldIsMissingFallsBackToTheTitledSummary() async {
        let backend = TestSkills.backend(Self.withSummary(TestSkills.countWords, "{words} words in {sentences} sentences."))
        let all = await events(of: Self.agent(backend), "count the words in hello big world")
        #expect(all.answer == "Word count: words: 3")
        let started = all.compactMap { if case .skillStarted(let info) = $0 { info.summaryTemplate } else { nil } }
        #expect(started == ["{words} words in {sentences} sentences."])
    }

    @Test func hostSkillDescriptionsCarryTheirTemplateIntoTools() {
        let description = SkillDescription(
            id: "clock.now", title: "Current time", description: "Now.", parameters: ["type": "object"], permission: .read,
            timeout: 5, idempotent: true, examples: [], pluginID: "clock", pluginPath: "/p/clock.so", enabled: true,
            approval: .allow, summary: "It is {time}.")
        #expect(SkillTool(description).summary == "It is {time}.")
    }
}
