import SkillJSON

/// A request that is only a new value for the one before it — "and tomorrow?", "what about friday?", "and in
/// Paris?" — or the answer to a question the planner asked ("when should that be?" → "tomorrow at 9am").
///
/// The new value replaces the date or the time zone of the last call of the previous turn that can take it
/// (the same skill, the other values kept); when the previous turn asked a question instead, the previous
/// request is planned again with the answer in it. When no previous call can take the value, the plan says
/// so about that skill rather than guessing another.
struct FollowUp {
    let planner: OfflinePlanner
    let tools: [ToolSpec]

    /// Words that open a follow-up, longest first.
    static let openers = [
        "and what about", "and how about", "what about", "how about", "and for", "same for", "same thing for", "and",
        "also", "now",
    ]
    /// Words that may close one.
    static let closers = ["then", "too", "instead", "as well", "please"]

    /// What the follow-up says: dates, or a zone.
    enum Value {
        case dates(PlannerClause)
        case zone(String, text: String)
    }

    /// The value `text` is when it says nothing else; nil for a request of its own.
    func value(of text: String) -> Value? {
        var words = RequestSplitter.stripFiller(text).split(separator: " ").map(String.init)
        var lowered: String { words.joined(separator: " ").lowercased() }
        for opener in Self.openers where lowered.hasPrefix(opener + " ") {
            words.removeFirst(opener.split(separator: " ").count)
            break
        }
        for closer in Self.closers where lowered.hasSuffix(" " + closer) {
            words.removeLast(closer.split(separator: " ").count)
            break
        }
        guard !words.isEmpty else { return nil }
        let rest = words.joined(separator: " ")
        let clause = PlannerClause(rest, scanner: TemporalScanner(calendar: planner.calendar))
        let covered = clause.mentions.reduce(into: Set<Int>()) { $0.formUnion($1.range) }
        if !clause.mentions.isEmpty, covered.count == clause.words.count { return .dates(clause) }
        var zoneWords = words.map(SlotExtractor.trimmed)
        if let first = zoneWords.first?.lowercased(), ["in", "for", "at", "to"].contains(first) { zoneWords.removeFirst() }
        if !zoneWords.isEmpty, let zone = SlotExtractor.zone(zoneWords) { return .zone(zone, text: zoneWords.joined(separator: " ")) }
        return nil
    }

    /// The plan for `text` after `earlier` (the conversation before it), or nil when `text` is no follow-up
    /// or there is nothing to follow.
    func plan(_ text: String, after earlier: [ChatMessage]) -> OfflinePlan? {
        guard let value = value(of: text),
            let previousIndex = earlier.lastIndex(where: { $0.role == .user && $0.content != AgentConfiguration.stepCapPrompt })
        else { return nil }
        let previousText = earlier[previousIndex].content
        let calls = earlier[(previousIndex + 1)...].filter { $0.role == .assistant }.flatMap(\.toolCalls)
        var clause = text.trimmingWhitespace()
        while let last = clause.last, ".!?,;".contains(last) { clause.removeLast() }
        if calls.isEmpty {
            // The previous turn asked instead of calling: ask it again with the answer in it.
            let previous = planner.plan(previousText, tools: tools)
            guard previous.steps.isEmpty, let asked = previous.unmapped.first else { return nil }
            let answered = planner.plan(Self.answering(previousText, asked, with: RequestSplitter.stripFiller(text)), tools: tools)
            return answered.steps.isEmpty ? nil : answered
        }
        var refusal: OfflinePlan.Unmapped?
        for call in calls.reversed() {
            guard let spec = tools.first(where: { $0.name == call.name }), var arguments = (try? call.parsedArguments())?.objectValue
            else { continue }
            switch value {
            case .dates(let dates):
                let parameters = DateParameter.all(of: spec)
                guard !parameters.isEmpty else {
                    refusal = refusal ?? .init(clause: clause, reason: .question(toolName: spec.name, parameter: "", text: dates.text, why: .noParameter))
                    continue
                }
                for parameter in parameters { arguments[parameter.name] = nil }
                let placement = TemporalPlacement(calendar: planner.calendar, contextDay: nil)
                if let problem = placement.placeRemaining(dates.mentions, spec: spec, arguments: &arguments) {
                    return OfflinePlan(steps: [], unmapped: [.init(clause: clause, reason: OfflinePlanner.question(spec.name, problem))])
                }
            case .zone(let zone, let zoneText):
                let properties = spec.tool.parameters["properties"]?.objectValue ?? [:]
                let zones = properties.keys.sorted().filter { SkillVocabulary.kind(of: $0, schema: properties[$0]) == .zone }
                let target = zones.first { arguments[$0] != nil && !$0.lowercased().hasPrefix("from") }
                    ?? zones.first { !$0.lowercased().hasPrefix("from") } ?? zones.first
                guard let target else {
                    refusal = refusal ?? .init(clause: clause, reason: .question(toolName: spec.name, parameter: "", text: zoneText, why: .noZone))
                    continue
                }
                arguments[target] = .string(zone)
            }
            return OfflinePlan(steps: [planner.step(clause, spec, arguments)], unmapped: [])
        }
        return refusal.map { OfflinePlan(steps: [], unmapped: [$0]) }
    }

    /// The previous request with the answer to its question in it: the words that could not be read replaced
    /// ("remind me to call mom later" + "tomorrow at 9am"), else the answer added at the end.
    static func answering(_ request: String, _ asked: OfflinePlan.Unmapped, with answer: String) -> String {
        if case .question(_, _, let text, .unreadable) = asked.reason, !text.isEmpty, let range = request.range(of: text) {
            return request.replacingCharacters(in: range, with: answer)
        }
        return request + " " + answer
    }
}
