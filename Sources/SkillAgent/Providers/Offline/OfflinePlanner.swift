import Foundation
import SkillJSON

/// Maps a sentence to skill calls. Each clause is first matched word for word against the tools' example
/// utterances (`examples` in the manifest; a tool's title also counts as an example without slots); when
/// none matches, ``SkillScorer`` picks the tool whose words the clause uses, if one clearly wins, and
/// ``SlotExtractor`` finds its values anywhere in the clause. A tool whose required values are not in the
/// clause is not called. Deterministic: the same sentence and tools give the same plan.
struct OfflinePlanner: Sendable {
    let filler: SlotFiller

    /// The user's calendar, for the dates in requests.
    var calendar: TemporalCalendar { TemporalCalendar(now: filler.now, timeZone: filler.timeZone) }

    /// One clause's outcome: calls, or the reason there are none.
    enum ClauseOutcome {
        case steps([OfflinePlan.Step])
        case unmapped(OfflinePlan.Unmapped)
    }

    /// The plan for `text` over `tools`.
    func plan(_ text: String, tools: [ToolSpec]) -> OfflinePlan {
        let scorer = SkillScorer(tools: tools, filler: filler)
        var plan = OfflinePlan(steps: [], unmapped: [])
        var day: LocalDay?
        for clause in RequestSplitter.clauses(of: text) {
            switch outcome(for: clause, scorer: scorer, day: &day) {
            case .steps(let steps): plan.steps.append(contentsOf: steps)
            case .unmapped(let unmapped): plan.unmapped.append(unmapped)
            }
        }
        return plan
    }

    /// The steps of one clause: split at weak separators when every part is a step of its own (or only
    /// another value for the step before it), else the whole clause as one step. `day` is the day an
    /// earlier step named (a bare time later in the request is on it), updated with this clause's steps.
    func outcome(for text: String, scorer: SkillScorer, day: inout LocalDay?) -> ClauseOutcome {
        let scanner = TemporalScanner(calendar: calendar)
        let whole = PlannerClause(text, scanner: scanner)
        for separators in RequestSplitter.weakSeparators where !separators.contains(where: whole.splitsADate) {
            let parts = RequestSplitter.parts(of: text, separators: separators)
            guard parts.count > 1 else { continue }
            var steps: [OfflinePlan.Step] = []
            var partDay = day
            for part in parts {
                let clause = PlannerClause(part, scanner: scanner)
                if case .steps(let found) = single(clause, scorer: scorer, day: partDay, strict: true), let step = found.first {
                    steps.append(step)
                } else if let previous = steps.last, let step = continuation(clause, of: previous, scorer: scorer, day: partDay) {
                    steps.append(step)
                } else {
                    break
                }
                partDay = namedDay(in: steps.last!, scorer: scorer) ?? partDay
            }
            if steps.count == parts.count, !Self.repeatsItself(steps) {
                day = partDay
                return .steps(steps)
            }
        }
        let outcome = single(whole, scorer: scorer, day: day)
        if case .steps(let steps) = outcome { day = steps.compactMap { namedDay(in: $0, scorer: scorer) }.last ?? day }
        return outcome
    }

    /// The day other than today that a step's date parameters hold, if any.
    func namedDay(in step: OfflinePlan.Step, scorer: SkillScorer) -> LocalDay? {
        guard let vocabulary = scorer.vocabularies.first(where: { $0.name == step.toolName }) else { return nil }
        let today = calendar.today
        for parameter in DateParameter.all(of: vocabulary.spec) {
            guard let text = step.arguments[parameter.name]?.stringValue, let day = Self.day(of: text), day != today else { continue }
            return day
        }
        return nil
    }

    /// The day a `YYYY-MM-DD…` value starts with.
    static func day(of value: String) -> LocalDay? {
        let parts = value.prefix(10).split(separator: "-")
        guard value.count >= 10, parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2])
        else { return nil }
        return LocalDay(year: year, month: month, day: day)
    }

    /// A part that is only another value for the step before it ("what time is it in Tokyo and Paris",
    /// "and in London"): the same call with that value; nil when the part says anything else.
    func continuation(_ part: PlannerClause, of previous: OfflinePlan.Step, scorer: SkillScorer, day: LocalDay?) -> OfflinePlan.Step? {
        guard let tool = scorer.vocabularies.first(where: { $0.name == previous.toolName }) else { return nil }
        var arguments = previous.arguments.objectValue ?? [:]
        let vocabulary = tool.restricted(to: Set(arguments.keys))
        let placement = TemporalPlacement(calendar: calendar, contextDay: day)
        let (words, _, reading) = scorer.reading(part, vocabulary, placement: placement)
        let onlyValues = words.stems.indices.allSatisfy { reading.used.contains($0) || words.stems[$0] == nil }
        guard reading.typedCount > 0, reading.unreadable == nil, reading.problem == nil, onlyValues else { return nil }
        for (name, value) in reading.arguments.members { arguments[name] = value }
        return step(part.text, vocabulary.spec, arguments)
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
    /// in "count the words in The disk is slow. The memory is full." the second sentence is still text. A
    /// date that cannot be placed as said makes the clause a question about its skill.
    func single(_ clause: PlannerClause, scorer: SkillScorer, day: LocalDay?, strict: Bool = false) -> ClauseOutcome {
        let placement = TemporalPlacement(calendar: calendar, contextDay: day)
        let text = clause.text
        let template = bestTemplate(for: clause, vocabularies: scorer.vocabularies, placement: placement)
        if let template, template.problem == nil { return .steps([template.step]) }
        let scored = scorer.best(for: clause, placement: placement)
        // A template that fits but cannot place a date is asked about, unless another skill clearly can run
        // ("what's the date 10 days from now" is clock.add, not clock.now's "what is the date").
        if let template, let problem = template.problem {
            if case .match(let score) = scored, score.reading.canRun, score.vocabulary.name != template.step.toolName, !strict {
                return .steps([step(text, score.vocabulary.spec, score.reading.arguments)])
            }
            return .unmapped(.init(clause: text, reason: Self.question(template.step.toolName, problem)))
        }
        switch scored {
        case .match(let score) where strict && score.unmatched > 0:
            return .unmapped(.init(clause: text, reason: .noMatch))
        case .match(let score) where score.reading.canRun:
            return .steps([step(text, score.vocabulary.spec, score.reading.arguments)])
        case .match(let score) where score.reading.problem != nil && score.reading.missing.isEmpty:
            return .unmapped(.init(clause: text, reason: Self.question(score.vocabulary.name, score.reading.problem!)))
        case .match(let score) where score.reading.missing.isEmpty:
            let unreadable = score.reading.unreadable ?? .init(parameter: "", text: "")
            return .unmapped(
                .init(
                    clause: text,
                    reason: .unreadable(toolName: score.vocabulary.name, parameter: unreadable.parameter, text: unreadable.text)))
        case .match(let score):
            return .unmapped(.init(clause: text, reason: .missing(toolName: score.vocabulary.name, parameters: score.reading.missing)))
        case .ambiguous(let scores):
            return .unmapped(.init(clause: text, reason: .ambiguous(toolNames: scores.map(\.vocabulary.name))))
        case .none:
            return .unmapped(.init(clause: text, reason: .noMatch))
        }
    }

    /// The question a date problem asks about a tool.
    static func question(_ toolName: String, _ problem: TemporalPlacement.Problem) -> OfflinePlan.Unmapped.Reason {
        .question(toolName: toolName, parameter: problem.parameter, text: problem.text, why: problem.why)
    }

    /// The most specific template match for one clause, or nil.
    func bestStep(for clause: String, tools: [ToolSpec]) -> OfflinePlan.Step? {
        let vocabularies = tools.sorted { $0.name < $1.name }.map(SkillVocabulary.of)
        let placement = TemporalPlacement(calendar: calendar, contextDay: nil)
        let match = bestTemplate(for: PlannerClause(clause, scanner: TemporalScanner(calendar: calendar)), vocabularies: vocabularies, placement: placement)
        return match?.problem == nil ? match?.step : nil
    }

    /// The most specific template match for one clause over tools already read (in name order), and the date
    /// problem it has, if any (a match without one wins over any with one). Each template is tried as
    /// written, with every date as one placeholder word its date slots take, and, when the clause has dates,
    /// without its date slots against the clause without its dates (which are then placed on their own).
    func bestTemplate(
        for clause: PlannerClause, vocabularies: [SkillVocabulary], placement: TemporalPlacement
    ) -> (step: OfflinePlan.Step, problem: TemporalPlacement.Problem?)? {
        guard !clause.words.isEmpty else { return nil }
        var best: (score: Int, step: OfflinePlan.Step)?
        var questioned: (score: Int, step: OfflinePlan.Step, problem: TemporalPlacement.Problem)?
        for vocabulary in vocabularies {
            let spec = vocabulary.spec
            let chosen = clause.mentions(for: vocabulary)
            let (held, literals) = clause.substituted(chosen)
            let dated = Set(vocabulary.dateParameters.map(\.name))
            let partChoices = Set(
                vocabulary.slots.filter { slot in PartOfDay.allCases.contains { ChoiceNames(slot.schema)?.value(named: $0.rawValue) != nil } }
                    .map(\.name))
            let sources = vocabulary.templates
            var attempts = sources.map { (template: $0, words: held, literals: literals, rest: [Int]()) }
            if !chosen.isEmpty {
                let reduced = clause.reduced(chosen)
                attempts += sources.map { ($0.without(dated.union(partChoices)) ?? $0, reduced, [:], chosen) }
            }
            for attempt in attempts {
                guard let match = templateMatch(attempt.template, attempt.words, attempt.literals, vocabulary) else { continue }
                // More literal words is more specific; on a tie, fewer words inside slots.
                let slotWords = match.values.reduce(0) { $0 + $1.count }
                let score = attempt.template.literalCount * 1000 - slotWords
                guard score > (best?.score ?? Int.min) else { continue }
                var arguments = JSONObject()
                var problem: TemporalPlacement.Problem?
                var placed = Set<Int>()
                for case .slot(let name) in attempt.template.pieces {
                    guard let run = match[name] else { continue }
                    if dated.contains(name), let parameter = vocabulary.dateParameters.first(where: { $0.name == name }),
                        let index = PlannerClause.mentionIndex(run[0])
                    {
                        placed.insert(index)
                        problem = problem ?? placement.place(clause.mentions[index], into: parameter, spec: spec, arguments: &arguments)
                    } else if arguments[name] == nil, let value = templateValue(for: run, schema: spec.tool.parameters["properties"]?[name], parameter: name, vocabulary: vocabulary), value != .null {
                        arguments[name] = value
                    }
                }
                let rest = attempt.rest.filter { !placed.contains($0) }.map { clause.mentions[$0] }
                if problem == nil { problem = placement.placeRemaining(rest, spec: spec, arguments: &arguments) }
                // A required parameter the template does not fill would be a guess: not this template.
                guard vocabulary.required.allSatisfy({ arguments[$0] != nil }) || problem != nil else { continue }
                problem = problem ?? TemporalResidue.problem(spec, arguments)
                let step = step(clause.text, spec, arguments)
                if let problem {
                    if score > (questioned?.score ?? Int.min) { questioned = (score, step, problem) }
                } else if score > (best?.score ?? Int.min) {
                    best = (score, step)
                }
            }
        }
        if let best { return (best.step, nil) }
        return questioned.map { ($0.step, $0.problem) }
    }

    /// The first way `words` fit `template` for this tool: a date slot takes one placeholder word, any other
    /// slot words without one that its parameter accepts.
    func templateMatch(_ template: UtteranceTemplate, _ words: [String], _ literals: [Int: String], _ vocabulary: SkillVocabulary) -> [String: [String]]? {
        let properties = vocabulary.spec.tool.parameters["properties"]
        let dated = Set(vocabulary.dateParameters.map(\.name))
        return template.matches(words, alternates: literals) { name, run in
            if dated.contains(name) { return run.count == 1 && PlannerClause.mentionIndex(run[0]) != nil }
            guard !run.contains(where: { PlannerClause.mentionIndex($0) != nil }) else { return false }
            return templateValue(for: run, schema: properties?[name], parameter: name, vocabulary: vocabulary) != nil
        }.first
    }

    /// The value a template slot takes: as ``SlotFiller`` reads it, except that a time-zone parameter
    /// (a plain string whose name mentions a zone) takes only a real zone, city or abbreviation, so "what
    /// time is it in the morning" is not a call with the zone "the morning", and free text loses its
    /// lead-in and must be a text ("summarize it" is not a call; see ``FreeTextLocator``).
    func templateValue(for run: [String], schema: JSONValue?, parameter: String, vocabulary: SkillVocabulary) -> JSONValue? {
        switch SkillVocabulary.kind(of: parameter, schema: schema) {
        case .zone: return SlotExtractor.zone(run.map(SlotExtractor.trimmed)).map { .string($0) }
        case .file, .folder: return PathWords.path(run, folder: SkillVocabulary.kind(of: parameter, schema: schema) == .folder)?.value
        case .glob: return PathWords.glob(run)
        case .date: return nil
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
        if let title = arguments["title"]?.stringValue, SkillVocabulary.kind(of: "title", schema: properties?["title"]) == .text {
            arguments["title"] = .string(Self.cleanedTitle(title))
        }
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

    /// A title without the words that only announce it: "a dentist appointment" → "dentist appointment",
    /// "the reminder buy milk" → "buy milk", "called team sync" → "team sync".
    static func cleanedTitle(_ title: String) -> String {
        var words = title.split(separator: " ").map(String.init)
        func drop(_ set: Set<String>) -> Bool {
            guard words.count > 1, set.contains(words[0].lowercased()) else { return false }
            words.removeFirst()
            return true
        }
        _ = drop(["a", "an", "the"])
        if drop(["reminder", "event", "task", "todo", "to-do", "item", "entry"]) { _ = drop(["to", "for"]) }
        _ = drop(["called", "named", "titled"])
        return words.joined(separator: " ")
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
