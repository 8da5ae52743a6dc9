import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// Multi-step requests over the bundled skills: steps split at "then", "and then", "after that", ";" and
/// "and" when each part is a request of its own, never inside quotes, and not where "and" joins one request.
@Suite struct OfflinePlannerMultiStepTests {
    @Test func thenAndThenAndAfterThatSplitInOrder() {
        let plan = BundledSkills.plan(
            "what time is it in Tokyo, and then how much memory is free, after that summarize 'x. y. z.' then what is the uptime")
        #expect(plan.steps.map(\.toolName) == ["clock_now", "sysinfo_memory", "text_summarize", "sysinfo_uptime"])
        #expect(plan.steps.map(\.arguments) == [["timezone": "Asia/Tokyo"], [:], ["text": "x. y. z."], [:]])
        #expect(plan.unmapped.isEmpty)
    }

    @Test func paraphrasedStepsSplitToo() {
        #expect(
            BundledSkills.plan("check the uptime, after that show me memory usage").steps.map(\.toolName)
                == ["sysinfo_uptime", "sysinfo_memory"])
        #expect(
            BundledSkills.plan("first tell me the uptime then the memory usage").steps.map(\.toolName)
                == ["sysinfo_uptime", "sysinfo_memory"])
        #expect(
            BundledSkills.plan("I would like to know the uptime, and afterwards the load average, and finally memory usage")
                .steps.map(\.toolName) == ["sysinfo_uptime", "sysinfo_load", "sysinfo_memory"])
        #expect(
            BundledSkills.plan("uptime; memory usage; load average").steps.map(\.toolName)
                == ["sysinfo_uptime", "sysinfo_memory", "sysinfo_load"])
        #expect(
            BundledSkills.plan("what time is it in Tokyo and then what is the uptime").steps.map(\.toolName)
                == ["clock_now", "sysinfo_uptime"])
    }

    @Test func freeTextThenAnotherStep() {
        let plan = BundledSkills.plan("give me statistics for the text hello world and then summarize 'A. B. C.' in 2 sentences")
        #expect(plan.steps.map(\.toolName) == ["text_stats", "text_summarize"])
        #expect(plan.steps.map(\.arguments) == [["text": "hello world"], ["text": "A. B. C.", "sentences": 2]])
    }

    @Test func quotesAreNeverSplit() {
        let plan = BundledSkills.plan("summarize \"Eat first, then sleep. After that, work.\" and then what is the uptime")
        #expect(plan.steps.map(\.toolName) == ["text_summarize", "sysinfo_uptime"])
        #expect(plan.steps.first?.arguments == ["text": "Eat first, then sleep. After that, work."])
        #expect("say 'a, then b' then c".quotedByteRanges() == [4..<15])
        #expect(RequestSplitter.clauses(of: "count the words in 'x, then y', then uptime") == ["count the words in 'x, then y'", "uptime"])
    }

    @Test func andInsideOneRequestDoesNotSplit() {
        let plan = BundledSkills.plan("give me the date and time in Berlin")
        #expect(plan.steps.map(\.toolName) == ["clock_now"])
        #expect(plan.steps.first?.arguments == ["timezone": "Europe/Berlin"])
        let words = BundledSkills.plan("count the words in salt and pepper")
        #expect(words.steps.map(\.arguments) == [["text": "salt and pepper"]])
    }

    @Test func sentencesOfATextStayText() {
        // "The memory is full" on its own would read as sysinfo.memory, but it does not know "full".
        let plan = BundledSkills.plan("count the words in The disk is slow. The memory is full.")
        #expect(plan.steps.map(\.toolName) == ["text_stats"])
        #expect(plan.steps.first?.arguments == ["text": "The disk is slow. The memory is full"])
    }

    @Test func anotherValueRepeatsTheStepBefore() {
        let zones = BundledSkills.plan("what time is it in Tokyo and in New York, then the uptime")
        #expect(zones.steps.map(\.toolName) == ["clock_now", "clock_now", "sysinfo_uptime"])
        #expect(zones.steps.prefix(2).map(\.arguments) == [["timezone": "Asia/Tokyo"], ["timezone": "America/New_York"]])
        // The value replaces the one the step had; it does not fill another parameter.
        let days = BundledSkills.plan("how many days until friday and monday")
        #expect(days.steps.map(\.arguments) == [["to": "2026-02-13"], ["to": "2026-02-16"]])
        // Free text is no value to repeat with.
        #expect(BundledSkills.plan("list the 3 most frequent words in salt and pepper").steps.map(\.arguments) == [["text": "salt and pepper", "top": 3]])
    }

    @Test func oneUnmappedStepDoesNotStopTheOthers() {
        let plan = BundledSkills.plan("book me a flight to Mars, then what is the uptime")
        #expect(plan.steps.map(\.toolName) == ["sysinfo_uptime"])
        #expect(plan.unmapped == [.init(clause: "book me a flight to Mars", reason: .noMatch)])
    }
}
