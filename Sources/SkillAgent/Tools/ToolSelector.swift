import Foundation
import SkillJSON
import Synchronization

/// Chooses the tools one request offers within a ``ToolBudget``: all of them when they fit; otherwise the
/// most relevant to the user's sentence (ranked by the offline planner's ``SkillScorer``), with the tools
/// the model found through ``FindSkillsTool`` first, descriptions cut to their first sentence when the
/// full ones do not fit, and `find_skills` itself so the model can ask for the rest.
struct ToolSelector {
    /// Every enabled skill as a tool.
    let specs: [ToolSpec]
    /// The limits.
    let budget: ToolBudget
    /// Whether every tool fits as it is (then no selection and no `find_skills`).
    let allFit: Bool
    private let scorer: SkillScorer

    init(specs: [ToolSpec], budget: ToolBudget) {
        self.specs = specs
        self.budget = budget
        allFit = specs.count <= budget.maxTools && ToolBudget.tokens(of: specs) <= budget.maxTokens
        scorer = SkillScorer(tools: allFit ? [] : specs, filler: SlotFiller(now: Date(), timeZone: .current))
    }

    /// The tools ranked for `sentence`, most relevant first (ties by name).
    ///
    /// The score is the relevance part of the offline planner's ``SkillScorer``, without its slot reading
    /// (too slow for 600 tools on every request): the weights of the sentence's words in the tool
    /// (example 3, title 2, description 1), each divided by the square root of how widely the tools know
    /// it, plus the phrase similarity to the tool's closest example (×``SkillScorer/phraseWeight``).
    func ranked(for sentence: String) -> [ToolSpec] {
        let words = ClauseWords(sentence)
        let stems = Set(words.stems.compactMap { $0 })
        let cues = Set(words.cues)
        var scores: [String: Double] = [:]
        for vocabulary in scorer.vocabularies {
            var total = 0.0
            for stem in stems {
                if let weight = vocabulary.weights[stem] { total += weight / max(1, scorer.frequency[stem] ?? 1).squareRoot() }
            }
            let similarity = vocabulary.exampleWords.map { example in
                let literal = example.filter { !$0.hasPrefix("{") }
                return literal.isEmpty ? 0 : Double(literal.intersection(cues).count) / Double(literal.union(cues).count)
            }.max() ?? 0
            scores[vocabulary.spec.name] = total + similarity * SkillScorer.phraseWeight
        }
        return specs.sorted { left, right in
            let a = scores[left.name] ?? 0
            let b = scores[right.name] ?? 0
            return a != b ? a > b : left.name < right.name
        }
    }

    /// The tools to offer for `sentence`; `pinned` names (found by the model) come first.
    func offer(for sentence: String, pinned: [String] = []) -> [ToolSpec] {
        if allFit { return specs }
        let finder = FindSkillsTool.spec
        let byName = Dictionary(specs.map { ($0.name, $0) }) { first, _ in first }
        var order = pinned.compactMap { byName[$0] }
        let pinnedSet = Set(pinned)
        order += ranked(for: sentence).filter { !pinnedSet.contains($0.name) }
        let slots = budget.maxTools - 1
        let tokens = budget.maxTokens - ToolBudget.tokens(of: finder)
        // Tight: the best candidates do not fit whole, so every description shrinks to its first sentence.
        let tight = ToolBudget.tokens(of: Array(order.prefix(slots))) > tokens
        var chosen: [ToolSpec] = []
        var used = 0
        for spec in order where chosen.count < slots {
            let offered = tight ? Self.trimmed(spec) : spec
            let cost = ToolBudget.tokens(of: offered)
            guard used + cost <= tokens else { continue }
            chosen.append(offered)
            used += cost
        }
        return chosen + [finder]
    }

    private static let cache = Mutex<ToolSelector?>(nil)

    /// A selector for `specs`, reused while the enabled skills and the budget stay the same (reading 600
    /// tools takes longer than comparing them).
    static func cached(specs: [ToolSpec], budget: ToolBudget) -> ToolSelector {
        if let hit = cache.withLock({ $0 }), hit.budget == budget, hit.specs == specs { return hit }
        let made = ToolSelector(specs: specs, budget: budget)
        cache.withLock { $0 = made }
        return made
    }

    /// `spec` with its description, and its parameters' descriptions, cut to the first sentence, and
    /// without `pattern`s (the host still validates them and tells the model what did not fit).
    static func trimmed(_ spec: ToolSpec) -> ToolSpec {
        var spec = spec
        spec.tool.description = firstSentence(of: spec.tool.description)
        spec.tool.parameters = compacted(spec.tool.parameters)
        return spec
    }

    /// A schema with descriptions cut to their first sentence and without `pattern`s, at every level.
    static func compacted(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(var object):
            for key in object.keys {
                if key == "pattern", object[key]?.stringValue != nil {
                    object[key] = nil
                } else if key == "description", let text = object[key]?.stringValue {
                    object[key] = .string(firstSentence(of: text))
                } else if let value = object[key] {
                    object[key] = compacted(value)
                }
            }
            return .object(object)
        case .array(let items):
            return .array(items.map(compacted))
        default:
            return schema
        }
    }

    /// The text up to and including the first `.`, `!` or `?` followed by a space (or the end).
    static func firstSentence(of text: String) -> String {
        var previous: Character?
        for index in text.indices {
            let character = text[index]
            if character == " ", let previous, ".!?".contains(previous) {
                let head = String(text[..<index])
                if !head.hasSuffix("e.g."), !head.hasSuffix("i.e.") { return head }
            }
            previous = character
        }
        return text
    }
}
