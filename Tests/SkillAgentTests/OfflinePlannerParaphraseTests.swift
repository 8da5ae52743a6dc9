import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// Ordinary sentences that match no example word for word still plan the right call of a bundled skill
/// with the right arguments: paraphrases, politeness, other word orders, contractions, quoted text and
/// text after a colon. "Now" is Tuesday 2026-02-10 08:00 UTC.
@Suite struct OfflinePlannerParaphraseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var sentence: String
        var tool: String
        var arguments: JSONValue
        var testDescription: String { sentence }
    }

    static let clock: [Case] = [
        Case(sentence: "what is the time in Tokyo please", tool: "clock_now", arguments: ["timezone": "Asia/Tokyo"]),
        Case(sentence: "can you tell me the current time in new york?", tool: "clock_now", arguments: ["timezone": "America/New_York"]),
        Case(sentence: "Tokyo time", tool: "clock_now", arguments: ["timezone": "Asia/Tokyo"]),
        Case(sentence: "hey, what's the time in London right now?", tool: "clock_now", arguments: ["timezone": "Europe/London"]),
        Case(sentence: "what weekday is it today", tool: "clock_now", arguments: [:]),
        Case(sentence: "what's today's date", tool: "clock_now", arguments: [:]),
        Case(sentence: "give me the date and time in Berlin", tool: "clock_now", arguments: ["timezone": "Europe/Berlin"]),
        Case(sentence: "what date is it in 10 days", tool: "clock_add", arguments: ["amount": 10, "unit": "days"]),
        Case(sentence: "in 3 days what date will it be", tool: "clock_add", arguments: ["amount": 3, "unit": "days"]),
        Case(sentence: "what time will it be in 5 hours", tool: "clock_add", arguments: ["amount": 5, "unit": "hours"]),
        Case(
            sentence: "please add 90 minutes to 2026-03-01T09:30 in Berlin", tool: "clock_add",
            arguments: ["amount": 90, "unit": "minutes", "start": "2026-03-01T09:30", "timezone": "Europe/Berlin"]),
        Case(
            sentence: "what's the date 2 weeks from tomorrow", tool: "clock_add",
            arguments: ["amount": 2, "unit": "weeks", "start": "2026-02-11"]),
        Case(sentence: "how many days are left until 2026-12-25", tool: "clock_difference", arguments: ["to": "2026-12-25"]),
        Case(sentence: "how long since 2026-01-01?", tool: "clock_difference", arguments: ["to": "2026-01-01"]),
        Case(sentence: "how many days until friday", tool: "clock_difference", arguments: ["to": "2026-02-13"]),
        Case(sentence: "how many days until Dec 25th", tool: "clock_difference", arguments: ["to": "2026-12-25"]),
        Case(
            sentence: "how many days from jan 1 to the 1st of march 2027", tool: "clock_difference",
            arguments: ["from": "2027-01-01", "to": "2027-03-01"]),
        Case(
            sentence: "how many days between 2026-01-01 and 2026-02-01", tool: "clock_difference",
            arguments: ["from": "2026-01-01", "to": "2026-02-01"]),
        Case(sentence: "what day will it be 3 days from now", tool: "clock_add", arguments: ["amount": 3, "unit": "days"]),
        Case(sentence: "add 1 day to 2026-02-28", tool: "clock_add", arguments: ["amount": 1, "unit": "days", "start": "2026-02-28"]),
        Case(
            sentence: "convert 14:00 from London to New York", tool: "clock_convert",
            arguments: ["time": "2026-02-10T14:00:00", "from_timezone": "Europe/London", "to_timezone": "America/New_York"]),
        Case(sentence: "what's 18:00 in Tokyo", tool: "clock_convert", arguments: ["time": "2026-02-10T18:00:00Z", "to_timezone": "Asia/Tokyo"]),
        // The user named the zone of the time, so it goes without an offset and the skill reads it there.
        Case(
            sentence: "could you convert 9:30 from Tokyo to Paris", tool: "clock_convert",
            arguments: ["time": "2026-02-10T09:30:00", "from_timezone": "Asia/Tokyo", "to_timezone": "Europe/Paris"]),
    ]

    static let sysinfo: [Case] = [
        Case(sentence: "which kernel am I running", tool: "sysinfo_kernel", arguments: [:]),
        Case(sentence: "what's the hostname of this box", tool: "sysinfo_kernel", arguments: [:]),
        Case(sentence: "what is the architecture of this machine", tool: "sysinfo_kernel", arguments: [:]),
        Case(sentence: "what is the uptime", tool: "sysinfo_uptime", arguments: [:]),
        Case(sentence: "how long has the computer been running", tool: "sysinfo_uptime", arguments: [:]),
        Case(sentence: "how long have we been running", tool: "sysinfo_uptime", arguments: [:]),
        Case(sentence: "when was the last reboot?", tool: "sysinfo_uptime", arguments: [:]),
        Case(sentence: "show me the uptime please", tool: "sysinfo_uptime", arguments: [:]),
        Case(sentence: "how busy is the cpu right now", tool: "sysinfo_load", arguments: [:]),
        Case(sentence: "how many processors do I have", tool: "sysinfo_load", arguments: [:]),
        Case(sentence: "what's the cpu load", tool: "sysinfo_load", arguments: [:]),
        Case(sentence: "how much free memory do I have", tool: "sysinfo_memory", arguments: [:]),
        Case(sentence: "how much ram is used in GiB", tool: "sysinfo_memory", arguments: ["unit": "GiB"]),
        Case(sentence: "how much swap am I using", tool: "sysinfo_memory", arguments: [:]),
        Case(sentence: "give me an overview of the system", tool: "sysinfo_overview", arguments: [:]),
        Case(sentence: "how is this computer doing", tool: "sysinfo_overview", arguments: [:]),
        Case(sentence: "system info please", tool: "sysinfo_overview", arguments: [:]),
    ]

    static let text: [Case] = [
        Case(sentence: "how many sentences are in \"One. Two. Three.\"", tool: "text_stats", arguments: ["text": "One. Two. Three."]),
        Case(sentence: "how long would it take to read 'a b c d'", tool: "text_stats", arguments: ["text": "a b c d"]),
        Case(sentence: "count words in \"to be or not to be\"", tool: "text_stats", arguments: ["text": "to be or not to be"]),
        Case(sentence: "word count for hello there world", tool: "text_stats", arguments: ["text": "hello there world"]),
        Case(sentence: "list the 3 most frequent words in a a b b c", tool: "text_stats", arguments: ["text": "a a b b c", "top": 3]),
        Case(sentence: "summarize 'A. B. C.' in 2 sentences", tool: "text_summarize", arguments: ["text": "A. B. C.", "sentences": 2]),
        Case(
            sentence: "can you summarize \"One. Two. Three. Four.\" in one sentence", tool: "text_summarize",
            arguments: ["text": "One. Two. Three. Four.", "sentences": 1]),
        Case(
            sentence: "please summarize the following: Cats sleep. Dogs bark. Birds sing.", tool: "text_summarize",
            arguments: ["text": "Cats sleep. Dogs bark. Birds sing"]),
        Case(
            sentence: "can you give me a short summary of \"The cat sat. The dog ran.\"", tool: "text_summarize",
            arguments: ["text": "The cat sat. The dog ran."]),
        Case(
            sentence: "give me a 2 sentence summary of \"A b. C d. E f.\"", tool: "text_summarize",
            arguments: ["text": "A b. C d. E f.", "sentences": 2]),
        Case(sentence: "what are the main keywords in \"swift swift rust go\"", tool: "text_keywords", arguments: ["text": "swift swift rust go"]),
        Case(sentence: "extract keywords from: the cat and the hat", tool: "text_keywords", arguments: ["text": "the cat and the hat"]),
        Case(sentence: "tag this note: buy milk and bread", tool: "text_keywords", arguments: ["text": "buy milk and bread"]),
        Case(sentence: "what's this text about: cats are lovely pets", tool: "text_keywords", arguments: ["text": "cats are lovely pets"]),
        Case(sentence: "list 5 keywords for 'apples pears'", tool: "text_keywords", arguments: ["text": "apples pears", "count": 5]),
    ]

    @Test(arguments: clock + sysinfo + text)
    func paraphrasePlansOneCall(_ example: Case) {
        let plan = BundledSkills.plan(example.sentence)
        #expect(plan.unmapped.isEmpty)
        #expect(plan.steps.map(\.toolName) == [example.tool])
        #expect(plan.steps.first?.arguments == example.arguments)
    }

    @Test func everyBundledSkillHasParaphrases() {
        let covered = Set((Self.clock + Self.sysinfo + Self.text).map(\.tool))
        #expect(covered == Set(BundledSkills.tools.map(\.name)))
    }

    /// The two sentences of the brief, also without the examples added for the second one since.
    @Test func briefSentences() {
        let older = BundledSkills.tools(without: ["give me statistics for the text {text}", "word count of {text}"])
        for tools in [BundledSkills.tools, older] {
            #expect(BundledSkills.plan("what is the uptime", tools: tools).steps.map(\.toolName) == ["sysinfo_uptime"])
            let plan = BundledSkills.plan("what time is it in Asia/Tokyo, then give me statistics for the text hello world", tools: tools)
            #expect(plan.steps.map(\.toolName) == ["clock_now", "text_stats"])
            #expect(plan.steps.map(\.arguments) == [["timezone": "Asia/Tokyo"], ["text": "hello world"]])
            #expect(plan.unmapped.isEmpty)
        }
    }

    @Test func sameSentenceSamePlan() {
        let sentence = "how long has the computer been running, then what's the cpu load"
        #expect(BundledSkills.plan(sentence) == BundledSkills.plan(sentence))
        #expect(BundledSkills.plan(sentence, tools: BundledSkills.tools.reversed()) == BundledSkills.plan(sentence))
    }
}
