import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// The bundled plugins' skills (clock, sysinfo, text) as their manifests describe them (`skillhost inspect
/// <id> --json`, November 2026), so the planner tests do not depend on built plugins.
enum BundledSkills {
    static let manifests = [
        #"{"id":"clock.now","title":"Current time","description":"The current date, time and weekday in a time zone (UTC when none is given). Use it to answer \"what time/day is it\" and to anchor relative dates such as \"tomorrow\". Not for arithmetic on other dates (use clock.add) and not for converting a given time between zones (use clock.convert).","examples":["what time is it in {timezone}","current time in {timezone}","what day is it today","what is the date","time now"],"parameters":{"type":"object","properties":{"timezone":{"type":"string","description":"Time zone: IANA name (Europe/Paris), city (Tokyo) or abbreviation (PST); UTC if absent","pattern":"^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$","maxLength":64}},"required":[],"additionalProperties":false}}"#,
        #"{"id":"clock.add","title":"Add to a date","description":"Date arithmetic: the date and time that is a given amount of minutes, hours, days, weeks, months or years after (or, with a negative amount, before) a start date, now when none is given. Months and years follow the calendar (Jan 31 + 1 month = Feb 28/29) and days keep the wall-clock time across daylight-saving changes. Not for the span between two dates (use clock.difference).","examples":["what is the date in {amount} {unit}","add {amount} {unit} to {start}","what time will it be in {amount} {unit} in {timezone}","{amount} {unit} from now","what date is {amount} {unit} after {start}"],"parameters":{"type":"object","properties":{"amount":{"type":"integer","description":"How many units to add; negative to go back","minimum":-1000000,"maximum":1000000},"unit":{"type":"string","description":"The unit of amount","enum":["seconds","minutes","hours","days","weeks","months","years"]},"start":{"type":"string","description":"Start date, e.g. 2026-03-01 or 2026-03-01T09:30; now if absent","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"},"timezone":{"type":"string","description":"Time zone (IANA name, city or abbreviation) for the start and the result; UTC if absent","pattern":"^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$","maxLength":64}},"required":["amount","unit"],"additionalProperties":false}}"#,
        #"{"id":"clock.difference","title":"Time between dates","description":"How long it is from now (or from a given date) to a date: days, hours and minutes, and totals. Answers \"how many days until…\", \"how long ago was…\" and \"how long from … to …\"; `is_past` says whether the date lies before the start. Not for finding the date a given amount away (use clock.add).","examples":["how many days until {to}","how long until {to}","how long ago was {to}","how many days since {to}","how many days from {from} to {to}","time between {from} and {to} in {timezone}"],"parameters":{"type":"object","properties":{"to":{"type":"string","description":"The date to measure to, e.g. 2026-12-25 or 2026-12-25T18:00:00+01:00","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"},"from":{"type":"string","description":"The date to measure from; now if absent","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"},"timezone":{"type":"string","description":"Time zone (IANA name, city or abbreviation) for dates without an offset; UTC if absent","pattern":"^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$","maxLength":64}},"required":["to"],"additionalProperties":false}}"#,
        #"{"id":"clock.convert","title":"Convert between time zones","description":"Shows a given date and time in another time zone, e.g. \"9:30 in Tokyo is what in Paris\". Times without an offset are read in from_timezone (UTC if absent). Not for the current time (use clock.now).","examples":["what is {time} in {to_timezone}","convert {time} from {from_timezone} to {to_timezone}","{time} {from_timezone} in {to_timezone} time","when is {time} in {to_timezone}"],"parameters":{"type":"object","properties":{"time":{"type":"string","description":"The time to convert, e.g. 2026-03-01T09:30 or 2026-03-01T09:30:00+09:00","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"},"from_timezone":{"type":"string","description":"Time zone (IANA name, city or abbreviation) the time is written in; UTC if absent","pattern":"^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$","maxLength":64},"to_timezone":{"type":"string","description":"Time zone (IANA name, city or abbreviation) to show the time in","pattern":"^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$","maxLength":64}},"required":["time","to_timezone"],"additionalProperties":false}}"#,
        #"{"id":"sysinfo.kernel","title":"Kernel and host name","description":"The running kernel (name, release, version), the machine architecture and the host name of this computer. Not for the OS distribution's own version and not for other machines.","examples":["which kernel is this","what kernel version am I running","what is the host name","what architecture is this machine"],"parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false}}"#,
        #"{"id":"sysinfo.uptime","title":"Uptime","description":"How long this computer has been running since it booted, in seconds and as days, hours and minutes. Not for the current time (use clock.now).","examples":["how long has this machine been up","uptime","when did the computer last reboot"],"parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false}}"#,
        #"{"id":"sysinfo.load","title":"CPU load","description":"The 1, 5 and 15 minute load averages, the number of CPUs and of running tasks: how busy this computer is. Not per-process usage and not memory (use sysinfo.memory).","examples":["how busy is the machine","what is the load average","how many CPUs do I have"],"parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false}}"#,
        #"{"id":"sysinfo.memory","title":"Memory","description":"Total, free and available RAM and swap of this computer, and the share in use. Not disk space and not per-process memory.","examples":["how much memory is free","how much RAM do I have in {unit}","memory usage","how much swap is used"],"parameters":{"type":"object","properties":{"unit":{"type":"string","description":"Unit of the sizes (default MiB)","enum":["bytes","KiB","MiB","GiB"]}},"required":[],"additionalProperties":false}}"#,
        #"{"id":"sysinfo.overview","title":"System overview","description":"One summary of this computer: host name, kernel, architecture, uptime, load, CPU count and memory use. Use it for a general \"how is the machine\" question; for detail use sysinfo.kernel, sysinfo.uptime, sysinfo.load or sysinfo.memory. Not for other machines.","examples":["system overview","how is the machine doing","show system information","tell me about this computer"],"parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false}}"#,
        #"{"id":"text.stats","title":"Text statistics","description":"Counts in a text the user provides: characters, words, sentences, paragraphs and lines, average word and sentence length, estimated reading and speaking time, and the most frequent meaningful words. Use it for \"how long is this\", \"how many words\". Not for summarizing (use text.summarize) and not for reading files or web pages: pass the text itself.","examples":["how many words are in {text}","count the words in {text}","text statistics for {text}","how long does it take to read {text}","list the {top} most frequent words in {text}","give me statistics for the text {text}","word count of {text}"],"parameters":{"type":"object","properties":{"text":{"type":"string","description":"The text to measure","minLength":1,"maxLength":1000000},"top":{"type":"integer","description":"How many frequent words to list (default 5)","minimum":0,"maximum":50}},"required":["text"],"additionalProperties":false}}"#,
        #"{"id":"text.summarize","title":"Summarize a text","description":"An extractive summary of a text the user provides: picks its most representative sentences (those that share the most meaningful words with the rest of the text) and returns them in their original order, unchanged. Use it to shorten articles, notes and messages. Not a paraphrase or translation, and not for texts of one or two sentences; not for files or web pages: pass the text itself.","examples":["summarize {text}","summarize this: {text}","give me a summary of {text}","summarize {text} in {sentences} sentences","what are the key points of {text}","tl;dr {text}"],"parameters":{"type":"object","properties":{"text":{"type":"string","description":"The text to summarize","minLength":1,"maxLength":1000000},"sentences":{"type":"integer","description":"How many sentences to keep (default 3)","minimum":1,"maximum":20}},"required":["text"],"additionalProperties":false}}"#,
        #"{"id":"text.keywords","title":"Keywords of a text","description":"The words and two-word phrases that characterize a text the user provides, ranked by how often they occur outside common stop words. Use it to tag or title notes, or to see what a text is about. Not a summary (use text.summarize) and not a search in other texts.","examples":["keywords of {text}","what is {text} about","tag {text}","give me {count} keywords for {text}"],"parameters":{"type":"object","properties":{"text":{"type":"string","description":"The text to analyse","minLength":1,"maxLength":1000000},"count":{"type":"integer","description":"How many keywords to return (default 10)","minimum":1,"maximum":50}},"required":["text"],"additionalProperties":false}}"#,
    ]

    /// Every bundled skill as the agent offers it, under its tool name (`clock.now` → `clock_now`).
    static let tools: [ToolSpec] = manifests.map { text in
        let manifest = try! JSONValue(parsing: text)
        let id = manifest["id"]?.stringValue ?? ""
        let tool = SkillTool(
            id: id, title: manifest["title"]?.stringValue ?? "", description: manifest["description"]?.stringValue ?? "",
            parameters: manifest["parameters"] ?? ["type": "object"],
            examples: manifest["examples"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        return ToolSpec(name: id.replacingOccurrences(of: ".", with: "_"), tool: tool)
    }

    /// The tools with some examples left out, to show that the scored fallback (not an exact example)
    /// handles a phrasing.
    static func tools(without examples: Set<String>) -> [ToolSpec] {
        tools.map { spec in
            var spec = spec
            spec.tool.examples.removeAll { examples.contains($0) }
            return spec
        }
    }

    /// 2026-02-10 08:00 UTC (a Tuesday), read in UTC.
    static let filler = SlotFiller(now: Date(timeIntervalSince1970: 1_770_710_400), timeZone: TimeZone(identifier: "UTC")!)

    /// The plan for `text` over the bundled skills (or `tools`).
    static func plan(_ text: String, tools: [ToolSpec] = BundledSkills.tools) -> OfflinePlan {
        OfflinePlanner(filler: filler).plan(text, tools: tools)
    }
}

/// Every example of every bundled skill, with its slots filled, plans a call of that skill.
@Suite struct OfflinePlannerBundledSkillsTests {
    static let samples: [String: String] = [
        "timezone": "Tokyo", "amount": "3", "unit": "days", "start": "2026-03-01", "to": "2026-12-25",
        "from": "2026-01-01", "time": "2026-03-01T09:30", "from_timezone": "Tokyo", "to_timezone": "Paris",
        "text": "cats sleep all day", "top": "3", "sentences": "2", "count": "4",
    ]

    @Test func fixtureHasEveryBundledSkill() {
        #expect(BundledSkills.tools.count == 12)
        #expect(BundledSkills.tools.allSatisfy { !$0.tool.examples.isEmpty && !$0.tool.title.isEmpty })
    }

    @Test(arguments: BundledSkills.tools.map(\.name))
    func examplesPlanTheirOwnSkill(name: String) throws {
        let spec = try #require(BundledSkills.tools.first { $0.name == name })
        for example in spec.tool.examples {
            var sentence = example
            for (name, value) in Self.samples {
                let sample = name == "unit" && spec.name == "sysinfo_memory" ? "GiB" : value
                sentence = sentence.replacingOccurrences(of: "{\(name)}", with: sample)
            }
            let plan = BundledSkills.plan(sentence)
            #expect(plan.steps.map(\.toolName) == [spec.name], "\(sentence)")
        }
    }
}
