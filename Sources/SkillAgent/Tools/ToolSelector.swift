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
    /// Per vocabulary of the scorer: its examples' literal words (slots left out).
    private let literalExamples: [[Set<String>]]

    init(specs: [ToolSpec], budget: ToolBudget) {
        self.specs = specs
        self.budget = budget
        allFit = specs.count <= budget.maxTools && ToolBudget.tokens(of: specs) <= budget.maxTokens
        (scorer, literalExamples) = allFit ? Self.read([]) : Self.cachedReading(of: specs)
    }

    /// The scorer's reading of `specs` and its examples' literal words (slots left out).
    private static func read(_ specs: [ToolSpec]) -> (SkillScorer, [[Set<String>]]) {
        let scorer = SkillScorer(tools: specs, filler: SlotFiller(now: Date(), timeZone: .current))
        let literal = scorer.vocabularies.map { vocabulary in
            vocabulary.exampleWords.map { $0.filter { !$0.hasPrefix("{") } }.filter { !$0.isEmpty }
        }
        return (scorer, literal)
    }

    private static let cache = Mutex<(specs: [ToolSpec], scorer: SkillScorer, literal: [[Set<String>]])?>(nil)

    /// The reading of `specs`, reused while the enabled skills stay the same (reading 600 tools takes far
    /// longer than comparing them).
    private static func cachedReading(of specs: [ToolSpec]) -> (SkillScorer, [[Set<String>]]) {
        if let hit = cache.withLock({ $0 }), hit.specs == specs { return (hit.scorer, hit.literal) }
        let (scorer, literal) = read(specs)
        cache.withLock { $0 = (specs, scorer, literal) }
        return (scorer, literal)
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
        let damping = Dictionary(uniqueKeysWithValues: stems.map { ($0, max(1, scorer.frequency[$0] ?? 1).squareRoot()) })
        for (vocabulary, examples) in zip(scorer.vocabularies, literalExamples) {
            var total = 0.0
            for (stem, divisor) in damping {
                if let weight = vocabulary.weights[stem] { total += weight / divisor }
            }
            var similarity = 0.0
            for literal in examples {
                let shared = literal.reduce(0) { cues.contains($1) ? $0 + 1 : $0 }
                similarity = max(similarity, Double(shared) / Double(literal.count + cues.count - shared))
            }
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
        // Past the best few, a tool that still fits is no longer a relevant one: look no further.
        for spec in order.prefix(slots * 3) where chosen.count < slots && tokens - used >= Self.smallestTool {
            let offered = tight ? Self.trimmed(spec) : spec
            let cost = ToolBudget.tokens(of: offered)
            guard used + cost <= tokens else { continue }
            chosen.append(offered)
            used += cost
        }
        return chosen + [finder]
    }

    /// Fewer tokens than any tool definition takes (a name, a short description, an empty object schema).
    static let smallestTool = 24

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
