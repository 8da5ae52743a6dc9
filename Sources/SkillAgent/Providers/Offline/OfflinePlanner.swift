import Foundation
import SkillJSON

/// The offline planner's reading of one request: the skill calls to make, in order, and the clauses it
/// could not map to any skill.
struct OfflinePlan: Sendable, Equatable {
    /// One planned call.
    struct Step: Sendable, Equatable {
        /// The clause it came from.
        var clause: String
        /// The tool to call.
        var toolName: String
        /// The filled arguments.
        var arguments: JSONValue
    }

    /// The calls, in the order the user asked for them.
    var steps: [Step]
    /// Clauses no example utterance matched.
    var unmapped: [String]
}

/// Maps a sentence to skill calls by matching its clauses against the tools' example utterances
/// (`examples` in the manifest; a tool's title also counts as an example without slots). Deterministic:
/// the same sentence and tools give the same plan.
struct OfflinePlanner: Sendable {
    let filler: SlotFiller

    /// The plan for `text` over `tools`.
    func plan(_ text: String, tools: [ToolSpec]) -> OfflinePlan {
        var plan = OfflinePlan(steps: [], unmapped: [])
        for clause in RequestSplitter.clauses(of: text) {
            if let steps = steps(for: clause, tools: tools) {
                plan.steps.append(contentsOf: steps)
            } else {
                plan.unmapped.append(clause)
            }
        }
        return plan
    }

    /// The steps of one clause: split at weak separators when every part is a step of its own, else the
    /// whole clause as one step; nil when it maps to nothing.
    func steps(for clause: String, tools: [ToolSpec]) -> [OfflinePlan.Step]? {
        for separators in RequestSplitter.weakSeparators {
            let parts = RequestSplitter.parts(of: clause, separators: separators)
            guard parts.count > 1 else { continue }
            let steps = parts.compactMap { bestStep(for: $0, tools: tools) }
            if steps.count == parts.count { return steps }
        }
        return bestStep(for: clause, tools: tools).map { [$0] }
    }

    /// The most specific template match for one clause, or nil.
    func bestStep(for clause: String, tools: [ToolSpec]) -> OfflinePlan.Step? {
        let words = clause.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return nil }
        var best: (score: Int, step: OfflinePlan.Step)?
        for spec in tools.sorted(by: { $0.name < $1.name }) {
            let properties = spec.tool.parameters["properties"]
            let sources = spec.tool.examples + (spec.tool.title.isEmpty ? [] : [spec.tool.title])
            for template in sources.compactMap(UtteranceTemplate.init) {
                let matches = template.matches(words) { name, run in
                    filler.value(for: run, schema: properties?[name], parameter: name) != nil
                }
                guard let captured = matches.first else { continue }
                // More literal words is more specific; on a tie, fewer words inside slots.
                let slotWords = captured.values.reduce(0) { $0 + $1.count }
                let score = template.literalCount * 1000 - slotWords
                guard best == nil || score > best!.score else { continue }
                var arguments = JSONObject()
                for case .slot(let name) in template.pieces {
                    if let run = captured[name], let value = filler.value(for: run, schema: properties?[name], parameter: name) {
                        arguments[name] = value
                    }
                }
                best = (score, OfflinePlan.Step(clause: clause, toolName: spec.name, arguments: .object(arguments)))
            }
        }
        return best?.step
    }
}
