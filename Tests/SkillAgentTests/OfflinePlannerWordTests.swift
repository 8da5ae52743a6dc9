import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// The pieces of the scored reading: stems, clause words, what a tool's manifest teaches, free text and zones.
@Suite struct OfflinePlannerWordTests {
    static func vocabulary(_ name: String) throws -> SkillVocabulary {
        SkillVocabulary(try #require(BundledSkills.tools.first { $0.name == name }))
    }

    @Test func stemsFoldSpellingsOfOneWord() {
        #expect(WordNormalizer.stem("Words,") == "word")
        #expect(WordNormalizer.stem("rebooted") == WordNormalizer.stem("reboot"))
        #expect(Set(["summarize", "summarise", "summary", "summarized"].compactMap { WordNormalizer.stem($0) }) == ["summar"])
        #expect(WordNormalizer.stem("stats") == WordNormalizer.stem("statistics"))
        #expect(WordNormalizer.stem("RAM") == WordNormalizer.stem("memory"))
        #expect(WordNormalizer.stem("running") == "run")
        #expect(WordNormalizer.stem("today's") == "today")
        #expect(WordNormalizer.stem("the") == nil)
        #expect(WordNormalizer.stem("please") == nil)
        #expect(WordNormalizer.stems(of: "use clock.add for that") == ["use"])
        #expect(WordNormalizer.expandingContractions(["What's", "18:00"]) == ["What", "is", "18:00"])
    }

    @Test func clauseWordsFindQuotesAndColons() throws {
        let words = ClauseWords("summarize 'A. B. C.' in 2 sentences")
        let quoted = try #require(words.quoted)
        #expect(quoted.range == 1..<4)
        #expect(quoted.text == "A. B. C.")
        #expect(ClauseWords("don't stop me now").quoted == nil)
        #expect(ClauseWords("count \"unclosed words").quoted == nil)
        #expect(ClauseWords("tag this note: buy milk").afterColon == 3)
        #expect(ClauseWords("tag this note:").afterColon == nil)
    }

    @Test func quotedSeparatorsAreNotSplitPoints() {
        #expect("a \"b, then c\" d".quotedByteRanges() == [2..<13])
        #expect("it's Bob's 'x'".quotedByteRanges() == [11..<14])
        #expect("an 'unclosed quote".quotedByteRanges().isEmpty)
    }

    @Test func descriptionsCountOnlyForWhatASkillDoes() throws {
        #expect(SkillVocabulary.affirmativePart(of: "How long it runs. Not for the time (use clock.now). Uptime in days.") == "How long it runs. Uptime in days.")
        let uptime = try Self.vocabulary("sysinfo_uptime")
        #expect(uptime.weights["time"] == nil)
        #expect(uptime.weights["uptime"] == 3)
        let now = try Self.vocabulary("clock_now")
        #expect(now.weights["add"] == nil)
        #expect(now.weights["convert"] == nil)
        #expect(now.weights["time"] == 3)
        // A unit after a number slot names the parameter, not the skill.
        #expect(try Self.vocabulary("text_summarize").weights["sentence"] == 1)
    }

    @Test func parametersGetKindsAndCuesFromTheManifest() throws {
        let convert = try Self.vocabulary("clock_convert")
        #expect(convert.slots.map(\.name) == ["from_timezone", "time", "to_timezone"])
        #expect(convert.slots.map(\.kind) == [.zone, .date, .zone])
        #expect(convert.slots[0].before.contains("from"))
        #expect(convert.slots[2].before.isSuperset(of: ["to", "in"]))
        let add = try Self.vocabulary("clock_add")
        #expect(add.slots.first { $0.name == "amount" }?.followedBy == ["unit"])
        #expect(add.slots.first { $0.name == "unit" }?.kind == .choice)
        #expect(try Self.vocabulary("text_stats").slots.map(\.kind) == [.text, .number])
    }

    @Test func freeTextComesAfterItsCue() throws {
        let stats = try Self.vocabulary("text_stats")
        let extractor = SlotExtractor(filler: BundledSkills.filler)
        let reading = extractor.read(ClauseWords("give me statistics for the text hello world"), for: stats)
        #expect(reading.arguments == ["text": "hello world"])
        #expect(reading.used == [4, 5, 6, 7])
        #expect(extractor.read(ClauseWords("how long have we been running"), for: stats).missing == ["text"])
        #expect(extractor.read(ClauseWords("count the words in it"), for: stats).missing == ["text"])
        let summarize = try Self.vocabulary("text_summarize")
        let trailing = extractor.read(ClauseWords("summarize cats sleep. dogs bark. in 2 sentences"), for: summarize)
        #expect(trailing.arguments == ["text": "cats sleep. dogs bark.", "sentences": 2])
    }

    @Test func monthNamesMakeDates() {
        let filler = BundledSkills.filler  // now: 2026-02-10
        #expect(filler.date("december 25") == "2026-12-25")
        #expect(filler.date("Dec 25th, 2027") == "2027-12-25")
        #expect(filler.date("the 1st of march") == "2026-03-01")
        #expect(filler.date("february 10") == "2026-02-10")
        #expect(filler.date("january 5") == "2027-01-05")
        #expect(filler.date("february 30") == nil)
        #expect(filler.date("may") == nil)
        #expect(filler.date("25 apples") == nil)
        #expect(filler.date("on june 3") == "2026-06-03")
    }

    @Test func zonesMustBeRealZones() {
        #expect(SlotExtractor.zone(["Paris"]) == "Europe/Paris")
        #expect(SlotExtractor.zone(["new", "york"]) == "America/New_York")
        #expect(SlotExtractor.zone(["Asia/Tokyo"]) == "Asia/Tokyo")
        #expect(SlotExtractor.zone(["UTC"]) == "UTC")
        #expect(SlotExtractor.zone(["morning"]) == nil)
        #expect(SlotExtractor.zone(["Mars"]) == nil)
        #expect(SlotExtractor.zone(["in", "Paris"]) == nil)
    }

    @Test func templatesDoNotTakeJunkForValues() {
        let planner = OfflinePlanner(filler: BundledSkills.filler)
        // The zone slot of "what time is it in {timezone}" no longer takes any words.
        #expect(planner.bestStep(for: "what time is it in the morning", tools: BundledSkills.tools) == nil)
        #expect(planner.bestStep(for: "summarize it", tools: BundledSkills.tools) == nil)
        let step = planner.bestStep(for: "summarize the following: A. B. C.", tools: BundledSkills.tools)
        #expect(step?.arguments == ["text": "A. B. C."])
    }
}
