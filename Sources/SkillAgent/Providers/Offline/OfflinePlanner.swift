import Foundation
import SkillJSON

/// Maps a sentence to skill calls. Each clause is first matched word for word against the tools' example
/// utterances (`examples` in the manifest; a tool's title also counts as an example without slots); when
/// none matches, ``SkillScorer`` picks the tool whose words the clause uses, if one clearly wins, and
/// ``SlotExtractor`` finds its values anywhere in the clause. A tool whose required values are not in the
/// clause is not called. Deterministic: the same sentence and tools give the same plan.
struct OfflinePlanner: Sendable {
    let filler: SlotFiller

    /// One clause's outcome: calls, or the reason there are none.
    enum ClauseOutcome {
        case steps([OfflinePlan.Step])
        case unmapped(OfflinePlan.Unmapped)
    }

    /// The plan for `text` over `tools`.
    func plan(_ text: String, tools: [ToolSpec]) -> OfflinePlan {
        let scorer = SkillScorer(tools: tools, filler: filler)
        var plan = OfflinePlan(steps: [], unmapped: [])
        for clause in RequestSplitter.clauses(of: text) {
            switch outcome(for: clause, scorer: scorer) {
            case .steps(let steps): plan.steps.append(contentsOf: steps)
            case .unmapped(let unmapped): plan.unmapped.append(unmapped)
            }
        }
        return filler.date("today").map { plan.carryingDates(today: $0) } ?? plan
    }

    /// The steps of one clause: split at weak separators when every part is a step of its own (or only
    /// another value for the step before it), else the whole clause as one step.
    func outcome(for clause: String, scorer: SkillScorer) -> ClauseOutcome {
        for separators in RequestSplitter.weakSeparators {
            let parts = RequestSplitter.parts(of: clause, separators: separators)
            guard parts.count > 1 else { continue }
            var steps: [OfflinePlan.Step] = []
            for part in parts {
                if case .steps(let found) = single(part, scorer: scorer, strict: true), let step = found.first {
                    steps.append(step)
                } else if let previous = steps.last, let step = continuation(part, of: previous, scorer: scorer) {
                    steps.append(step)
                } else {
                    break
                }
            }
            if steps.count == parts.count, !Self.repeatsItself(steps) { return .steps(steps) }
        }
        return single(clause, scorer: scorer)
    }

    /// A part that is only another value for the step before it ("what time is it in Tokyo and Paris",
    /// "and in London"): the same call with that value; nil when the part says anything else.
    func continuation(_ part: String, of previous: OfflinePlan.Step, scorer: SkillScorer) -> OfflinePlan.Step? {
        guard let tool = scorer.vocabularies.first(where: { $0.name == previous.toolName }) else { return nil }
        var arguments = previous.arguments.objectValue ?? [:]
        let vocabulary = tool.restricted(to: Set(arguments.keys))
        let words = ClauseWords(part)
        let reading = scorer.extractor.read(words, for: vocabulary)
        let onlyValues = words.stems.indices.allSatisfy { reading.used.contains($0) || words.stems[$0] == nil }
        guard reading.typedCount > 0, reading.unreadable == nil, onlyValues else { return nil }
        for (name, value) in reading.arguments { arguments[name] = value }
        return step(part, vocabulary.spec, arguments)
    }

    /// Whether a part calls the same tool as another with no arguments of its own: "the date and time in
    /// Berlin" is one request, not "the date" and "time in Berlin".
    static func repeatsItself(_ steps: [OfflinePlan.Step]) -> Bool {
        steps.indices.contains { index in
            let arguments = steps[index].arguments.objectValue ?? [:]
            return arguments.isEmpty && steps.indices.contains { $0 != index && steps[$0].toolName == steps[index].toolName }
        }
    }

    /// One clause as one step: the best template match, else the scorer's clear winner. A `strict` reading
    /// (a part of a clause split at "and", ". " or ";") takes a scored winner only when it knows every word:
    /// in "count the words in The disk is slow. The memory is full." the second sentence is still text.
    func single(_ clause: String, scorer: SkillScorer, strict: Bool = false) -> ClauseOutcome {
        if let step = bestStep(for: clause, vocabularies: scorer.vocabularies) { return .steps([step]) }
        switch scorer.best(for: clause) {
        case .match(let score) where strict && score.unmatched > 0:
            return .unmapped(.init(clause: clause, reason: .noMatch))
        case .match(let score) where score.reading.canRun:
            return .steps([step(clause, score.vocabulary.spec, score.reading.arguments)])
        case .match(let score) where score.reading.missing.isEmpty:
            let unreadable = score.reading.unreadable ?? .init(parameter: "", text: "")
            return .unmapped(
                .init(
                    clause: clause,
                    reason: .unreadable(toolName: score.vocabulary.name, parameter: unreadable.parameter, text: unreadable.text)))
        case .match(let score):
            return .unmapped(.init(clause: clause, reason: .missing(toolName: score.vocabulary.name, parameters: score.reading.missing)))
        case .ambiguous(let scores):
            return .unmapped(.init(clause: clause, reason: .ambiguous(toolNames: scores.map(\.vocabulary.name))))
        case .none:
            return .unmapped(.init(clause: clause, reason: .noMatch))
        }
    }

    /// The most specific template match for one clause, or nil.
    func bestStep(for clause: String, tools: [ToolSpec]) -> OfflinePlan.Step? {
        bestStep(for: clause, vocabularies: tools.sorted { $0.name < $1.name }.map(SkillVocabulary.init))
    }

    /// The most specific template match for one clause over tools already read (in name order), or nil.
    func bestStep(for clause: String, vocabularies: [SkillVocabulary]) -> OfflinePlan.Step? {
        let words = WordNormalizer.expandingContractions(clause.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))
        guard !words.isEmpty else { return nil }
        var best: (score: Int, step: OfflinePlan.Step)?
        for vocabulary in vocabularies {
            let spec = vocabulary.spec
            let properties = spec.tool.parameters["properties"]
            let sources = spec.tool.examples + (spec.tool.title.isEmpty ? [] : [spec.tool.title])
            for template in sources.compactMap(UtteranceTemplate.init) {
                let matches = template.matches(words) { name, run in
                    templateValue(for: run, schema: properties?[name], parameter: name, vocabulary: vocabulary) != nil
                }
                guard let captured = matches.first else { continue }
                // More literal words is more specific; on a tie, fewer words inside slots.
                let slotWords = captured.values.reduce(0) { $0 + $1.count }
                let score = template.literalCount * 1000 - slotWords
                guard best == nil || score > best!.score else { continue }
                var arguments = JSONObject()
                for case .slot(let name) in template.pieces {
                    if let run = captured[name],
                        let value = templateValue(for: run, schema: properties?[name], parameter: name, vocabulary: vocabulary)
                    {
                        arguments[name] = value
                    }
                }
                // A required parameter the template does not fill would be a guess: not this template.
                guard vocabulary.required.allSatisfy({ arguments[$0] != nil }) else { continue }
                best = (score, step(clause, spec, arguments))
            }
        }
        return best?.step
    }

    /// The value a template slot takes: as ``SlotFiller`` reads it, except that a time-zone parameter
    /// (a plain string whose name mentions a zone) takes only a real zone, city or abbreviation, so "what
    /// time is it in the morning" is not a call with the zone "the morning", and free text loses its
    /// lead-in and must be a text ("summarize it" is not a call; see ``FreeTextLocator``).
    func templateValue(for run: [String], schema: JSONValue?, parameter: String, vocabulary: SkillVocabulary) -> JSONValue? {
        switch SkillVocabulary.kind(of: parameter, schema: schema) {
        case .zone: return SlotExtractor.zone(run.map(SlotExtractor.trimmed)).map { .string($0) }
        case .text:
            let text = FreeTextLocator.cleaned(run, vocabulary: vocabulary)
            return text.flatMap { filler.value(for: $0, schema: schema, parameter: parameter) }
        default: return filler.value(for: run, schema: schema, parameter: parameter)
        }
    }

    /// The step for `arguments`, with times the planner worked out ("9:30", "tomorrow at 10am") written
    /// without a UTC offset when the user named the zone they are in (`from_timezone`, `timezone`), so the
    /// skill reads them in that zone rather than in the user's own.
    func step(_ clause: String, _ spec: ToolSpec, _ arguments: JSONObject) -> OfflinePlan.Step {
        var arguments = arguments
        let properties = spec.tool.parameters["properties"]
        let zoneGiven = arguments.keys.contains { name in
            !name.lowercased().hasPrefix("to") && SkillVocabulary.kind(of: name, schema: properties?[name]) == .zone
        }
        if zoneGiven {
            for name in arguments.keys where SkillVocabulary.kind(of: name, schema: properties?[name]) == .date {
                guard let value = arguments[name]?.stringValue, !clause.contains(value),
                    let pattern = properties?[name]?["pattern"]?.stringValue, let local = Self.withoutOffset(value),
                    SlotFiller.matches(local, pattern: pattern)
                else { continue }
                arguments[name] = .string(local)
            }
        }
        return OfflinePlan.Step(clause: clause, toolName: spec.name, arguments: .object(arguments))
    }

    /// A date-time without its trailing `Z` or `±hh:mm` offset, or nil when it has none.
    static func withoutOffset(_ value: String) -> String? {
        guard value.contains("T") else { return nil }
        if value.hasSuffix("Z") { return String(value.dropLast()) }
        let tail = value.suffix(6)
        guard tail.count == 6, tail.first == "+" || tail.first == "-", tail.dropFirst(3).first == ":" else { return nil }
        return String(value.dropLast(6))
    }
}
