import SkillCalls
import Foundation
import SkillJSON

/// The offline planner's final answer: one line per call with its outcome, then each part of the request
/// that did not become a call, said plainly with a phrasing that works.
struct OfflineAnswer {
    let plan: OfflinePlan
    let tools: [ToolSpec]
    /// The zone times in results are shown in.
    var timeZone: TimeZone = .current
    /// Disabled skills by the tool names the plan uses for them.
    var disabled: [String: DisabledSkill] = [:]

    var specs: [String: ToolSpec] { Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// The answer after `messages` (the turn's assistant and tool messages), `done` steps having been asked for:
    /// one line per call (the skill's sentence, else its title and first fields) with what the result holds
    /// listed under it (``ResultListing``), then what was not run and why.
    func text(after messages: [ChatMessage], done: Int) -> String {
        let calls = messages.flatMap(\.toolCalls)
        var lines: [(text: String, details: [String])] = []
        var sentences = 0
        if done > calls.count {
            let trimmed = done - calls.count
            lines.append(("(\(trimmed) earlier result\(trimmed == 1 ? " was" : "s were") trimmed from the conversation.)", []))
        }
        let listing = ResultListing(timeZone: timeZone)
        for call in calls {
            guard let result = messages.first(where: { $0.role == .tool && $0.toolCallID == call.id }) else { continue }
            let title = specs[call.name].map(Self.title) ?? call.name
            let value = try? JSONValue(parsing: result.content)
            if let error = value?["error"], let message = error["message"]?.stringValue {
                lines.append(("\(title) failed: \(message)", []))
            } else if let value {
                let template = specs[call.name]?.tool.summary
                if let sentence = ResultSummary.templated(value, template: template, limit: 200) {
                    // The skill's own sentence says what it is; no title needed.
                    lines.append((sentence, listing.lines(for: value, after: sentence, template: template)))
                    sentences += 1
                } else {
                    let line = "\(title): \(ResultSummary.line(for: value, limit: 200))"
                    lines.append((line, listing.lines(for: value, after: line)))
                }
            } else {
                lines.append(("\(title): \(result.content)", []))
            }
        }
        if done < plan.steps.count {
            lines.append(("I stopped before \(plan.steps[done...].map { "\"\($0.clause)\"" }.joined(separator: ", ")) (step limit reached).", []))
        }
        for unmapped in plan.unmapped {
            lines.append((line(for: unmapped), []))
        }
        if lines.isEmpty {
            lines.append(("I could not map that request to any enabled skill.", []))
        }
        if sentences == lines.count, lines.allSatisfy(\.details.isEmpty),
            let joined = Self.oneSentence(lines.map(\.text), endsWithChange: endsWithChange(calls))
        {
            return joined
        }
        let needsExamples = plan.unmapped.contains { $0.reason == .noMatch } || (calls.isEmpty && plan.unmapped.isEmpty)
        if needsExamples {
            lines[lines.count - 1].text += " Try phrasing it like: \(Self.examples(tools))."
        }
        if lines.count == 1 { return ([lines[0].text] + lines[0].details).joined(separator: "\n") }
        return lines.map { line in (["- " + line.text] + line.details.map { "  " + $0 }).joined(separator: "\n") }
            .joined(separator: "\n")
    }

    /// Whether the last call changed something (a `write` or `dangerous` skill).
    func endsWithChange(_ calls: [ToolCall]) -> Bool {
        guard let last = calls.last, let spec = specs[last.name] else { return false }
        return spec.tool.permission != .read
    }

    /// A request that looked something up and then changed something, every step answered by its skill's
    /// sentence, is answered in one sentence naming both: "Found 1 free slot, 09:00–12:00 on 2026-12-01,
    /// then added the reminder "workout" due 2026-12-01 10:00." Nil otherwise (one line per call stays).
    static func oneSentence(_ sentences: [String], endsWithChange: Bool) -> String? {
        guard sentences.count >= 2, endsWithChange else { return nil }
        var parts = sentences.map { sentence -> String in
            var text = sentence.trimmingWhitespace()
            while let last = text.last, ".!".contains(last) { text.removeLast() }
            return text
        }
        for index in parts.indices.dropFirst() {
            let characters = Array(parts[index])
            // "Added …" → "added …"; a name or an acronym ("UTC …", "Tokyo…") is hard to tell apart from a
            // verb, so only a capitalized word followed by a lowercase letter is lowered.
            if characters.count > 1, characters[0].isUppercase, characters[1].isLowercase,
                !parts[index].hasPrefix("I ")
            {
                parts[index] = characters[0].lowercased() + String(characters.dropFirst())
            }
        }
        return parts.joined(separator: ", then ") + "."
    }

    /// What to say about a clause that did not become a call.
    func line(for unmapped: OfflinePlan.Unmapped) -> String {
        let clause = "\"\(unmapped.clause)\""
        switch unmapped.reason {
        case .noMatch:
            return "I could not map \(clause) to any enabled skill."
        case .missing(let toolName, let parameters):
            guard let spec = specs[toolName] else { return "I could not map \(clause) to any enabled skill." }
            let wanted = parameters.map { name in
                let description = spec.tool.parameters["properties"]?[name]?["description"]?.stringValue
                return description.map { "\(name) (\(Self.firstClause(of: $0)))" } ?? name
            }
            let example = spec.tool.examples.first { example in parameters.allSatisfy { example.contains("{\($0)}") } }
                ?? spec.tool.examples.first
            let hint = example.map { " Say it like: \"\($0)\"." } ?? ""
            return "\(clause) sounds like \(Self.title(spec)) (\(spec.tool.id)), but I could not find its "
                + wanted.joined(separator: " and ") + " in it, so I did not run it." + hint
        case .unreadable(let toolName, let parameter, let text):
            guard let spec = specs[toolName] else { return "I could not map \(clause) to any enabled skill." }
            let example = spec.tool.examples.first { $0.contains("{\(parameter)}") } ?? spec.tool.examples.first
            let hint = example.map { " Say it like: \"\($0)\"." } ?? ""
            return "\(clause) sounds like \(Self.title(spec)) (\(spec.tool.id)), but \"\(text)\" is not a "
                + "\(Self.parameterName(parameter, in: spec)) I can read, so I did not run it." + hint
        case .question(let toolName, let parameter, let text, let why):
            return question(clause: clause, toolName: toolName, parameter: parameter, text: text, why: why)
        case .disabled(let skillID, let title, let enable):
            let name = title.isEmpty ? skillID : "\(title) (\(skillID))"
            return "\(clause) needs \(name), which is disabled, so I did not run it. Enable it with "
                + "'skillhost enable \(enable.joined(separator: " "))' and ask again."
        case .ambiguous(let toolNames):
            let candidates = toolNames.compactMap { specs[$0] }
            let names = toolNames.compactMap { name -> String? in
                if let spec = specs[name] { return "\(Self.title(spec)) (\(spec.tool.id))" }
                guard let skill = disabled[name] else { return nil }
                return "\(skill.tool.title) (\(skill.tool.id), disabled: 'skillhost enable \(skill.enable.joined(separator: " "))')"
            }
            let phrasings = candidates.compactMap { $0.tool.examples.first }.map { "\"\($0)\"" }
            return "I could not tell whether \(clause) means \(names.joined(separator: " or ")), so I ran neither."
                + (phrasings.isEmpty ? "" : " Say it like: \(phrasings.joined(separator: " or ")).")
        }
    }

    /// A tool's title, else its skill id.
    static func title(_ spec: ToolSpec) -> String {
        spec.tool.title.isEmpty ? spec.tool.id : spec.tool.title
    }

    /// A parameter description up to its first comma or semicolon, without asides in parentheses and
    /// without a trailing period: "Time zone (IANA name, city or abbreviation) to show the time in" →
    /// "Time zone to show the time in".
    static func firstClause(of description: String) -> String {
        var plain = ""
        var depth = 0
        for character in description {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            default: if depth == 0 { plain.append(character) }
            }
        }
        plain = plain.replacingOccurrences(of: "  ", with: " ")
        let cut = plain.split(whereSeparator: { $0 == ";" || $0 == "," || $0 == ":" }).first.map(String.init) ?? plain
        let trimmed = cut.trimmingWhitespace()
        return trimmed.hasSuffix(".") ? String(trimmed.dropLast()) : trimmed
    }

    /// How a parameter is named in a message: "time zone" for zone parameters, else its name in words.
    static func parameterName(_ name: String, in spec: ToolSpec) -> String {
        let schema = spec.tool.parameters["properties"]?[name]
        switch SkillVocabulary.kind(of: name, schema: schema) {
        case .zone: return "time zone"
        case .date: return "date or time"
        default: return name.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// A few example utterances of the enabled tools, quoted: one skill of each plugin in turn (the plugin
    /// is the part of the skill id before its first dot), so the hint shows the range of what works.
    static func examples(_ tools: [ToolSpec]) -> String {
        let withExamples = tools.filter { !$0.tool.examples.isEmpty }.sorted { $0.tool.id < $1.tool.id }
        guard !withExamples.isEmpty else { return "(no enabled skill has examples; enable a skill with 'skillhost enable')" }
        var byPlugin: [String: [ToolSpec]] = [:]
        for spec in withExamples { byPlugin[String(spec.tool.id.prefix { $0 != "." }), default: []].append(spec) }
        let plugins = byPlugin.keys.sorted()
        var picked: [String] = []
        var round = 0
        while picked.count < 4, plugins.contains(where: { round < byPlugin[$0, default: []].count }) {
            for plugin in plugins where round < byPlugin[plugin, default: []].count && picked.count < 4 {
                picked.append(byPlugin[plugin, default: []][round].tool.examples[0])
            }
            round += 1
        }
        return picked.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

extension OfflineAnswer {
    /// A date or time that could not be placed, asked back: what was not understood, what was not run, and
    /// a phrasing that works.
    func question(clause: String, toolName: String, parameter: String, text: String, why: OfflinePlan.DateQuestion) -> String {
        guard let spec = specs[toolName] else { return "I could not map \(clause) to any enabled skill." }
        let name = "\(Self.title(spec)) (\(spec.tool.id))"
        switch why {
        case .unreadable:
            return "When should that be? I could not read \"\(text)\" as a date or time, so I did not run \(name). "
                + "Say a day and a time, e.g. \"tomorrow at 9am\"."
        case .needsTime:
            return "At what time \(text)? \(name) needs one time, not a part of the day, so I did not run it. "
                + "Say it with a time, e.g. \"\(text) at 9am\"."
        case .past(let time):
            return "\(time) today (\"\(text)\") has already passed, so I did not run \(name). Did you mean tomorrow? "
                + "Say \"tomorrow at \(time)\", or a time later today."
        case .noParameter:
            let hint = spec.tool.examples.first.map { " Say it like: \"\($0)\"." } ?? ""
            return "I could not use \"\(text)\" in \(clause): \(name) takes no date or time, so I did not run it." + hint
        case .noZone:
            return "I could not use \"\(text)\" in \(clause): \(name) takes no time zone, so I did not run it."
        }
    }
}
