import Foundation

/// The offline planner's fallback when no example matches a clause word for word: it scores every tool for
/// the clause and picks one only when it is a clear winner (``margin`` ahead of the runner-up).
///
/// A tool's score is the sum of the weights of the clause's words it knows (outside the values it would
/// fill; each word once), where a word weighs what it weighs in the tool (example 3, title 2, description
/// 1) divided by the square root of how widely the tools know it, so "machine" (several sysinfo skills)
/// decides less than "uptime"; plus the clause's similarity to the tool's closest example (×4) and 1 per
/// typed value it fills; minus 0.75 per content word it does not know and 1 per required value it lacks.
/// The numbers are tuned on the bundled skills' manifests and pinned by the planner tests.
struct SkillScorer {
    /// One tool's score for a clause.
    struct Score {
        var vocabulary: SkillVocabulary
        var reading: SlotReading
        /// Sum of the weights of the tool's words in the clause.
        var matched: Double
        /// Content words in the clause (outside values) the tool does not know.
        var unmatched: Int
        /// Content words in the clause (outside values) the tool knows. A tool must know at least as many
        /// as it does not: "how long is a piece of string" is not about uptime.
        var knownWords: Int
        /// The overall score.
        var total: Double
        /// Whether the clause is nearly one of the tool's examples with values in its slots ("what's 18:00
        /// in Tokyo"), which selects a tool even when all its words are stop words or values.
        var closeToExample: Bool
        /// The clause's similarity to the tool's closest example (0…1).
        var similarity: Double
        /// The score from the words alone: without the dates placed and without a date that could not be.
        var evidence: Double
    }

    /// The outcome of scoring one clause.
    enum Outcome {
        /// One tool clearly fits.
        case match(Score)
        /// Two or more tools fit about equally well (best first).
        case ambiguous([Score])
        /// No tool knows the clause's words.
        case none
    }

    /// The smallest matched weight that can select a tool: an example or title word, even one that five
    /// tools share (3/√5 ≈ 1.3), but not a word only a description mentions (at most 1).
    static let minimumMatch = 1.2
    /// Weight each unknown content word takes off.
    static let unknownPenalty = 0.75
    /// Weight each filled typed value adds.
    static let valueBonus = 1.0
    /// Phrase similarity from which a clause counts as a rewording of an example.
    static let closeSimilarity = 0.6
    /// Weight of the phrase similarity to the closest example (0…1).
    static let phraseWeight = 4.0
    /// Weight each required value the clause lacks (or each value it gives that does not fit) takes off: a
    /// tool that cannot run is a worse reading.
    static let missingPenalty = 1.0
    /// How far ahead of the runner-up a winner must be.
    static let margin = 0.75

    /// The tools, read once, in name order.
    let vocabularies: [SkillVocabulary]
    /// Finds each tool's values in a clause.
    let extractor: SlotExtractor
    /// Stem → in how many tools it occurs, each counted by its weight there (an example word 1, a
    /// description word 1/3), so a word that many descriptions mention still decides for its examples.
    let frequency: [String: Double]

    init(tools: [ToolSpec], filler: SlotFiller) {
        vocabularies = tools.sorted { $0.name < $1.name }.map(SkillVocabulary.of)
        extractor = SlotExtractor(filler: filler)
        var frequency: [String: Double] = [:]
        for vocabulary in vocabularies {
            for (stem, weight) in vocabulary.weights { frequency[stem, default: 0] += weight / 3 }
        }
        self.frequency = frequency
    }

    /// The clear winner for `clause`, the close contenders, or none.
    func best(for clause: PlannerClause, placement: TemporalPlacement) -> Outcome {
        let all = vocabularies.map { score(clause, $0, placement: placement) }
        let scores = all
            .filter { ($0.matched >= Self.minimumMatch && $0.knownWords >= $0.unmatched || $0.closeToExample) && $0.total > 0 }
            .sorted { ($0.total, $1.vocabulary.name) > ($1.total, $0.vocabulary.name) }
        guard let first = scores.first else {
            // Nothing but a value only one tool takes ("show me what's in todo.txt": a file name).
            // Several take it: the one whose example the clause is closest to, if one is.
            let valuesOnly = all.filter { $0.unmatched == 0 && $0.reading.extractedCount > 0 && $0.reading.canRun }
                .sorted { $0.similarity > $1.similarity }
            guard let first = valuesOnly.first, valuesOnly.count == 1 || first.similarity > valuesOnly[1].similarity else { return .none }
            return .match(first)
        }
        // The skill the words point to cannot take a date the user said: ask about it rather than run
        // another skill that only takes the date ("what time is it in the morning" is no time span).
        if let pointed = scores.max(by: { $0.evidence < $1.evidence }), pointed.reading.problem != nil,
            pointed.reading.missing.isEmpty, pointed.evidence > first.evidence
        {
            return .match(pointed)
        }
        guard scores.count > 1 else { return .match(first) }
        let second = scores[1]
        if first.total - second.total >= Self.margin { return .match(first) }
        // A tie between a tool that can run and one that lacks values goes to the one that can run.
        if first.reading.canRun, !second.reading.canRun, first.total >= second.total { return .match(first) }
        return .ambiguous(Array(scores.prefix(3).filter { first.total - $0.total < Self.margin }))
    }

    /// How close the clause is to the tool's closest example: the share of words they have in common, stop
    /// words included, a filled parameter counting as its slot ("what day is it" is close to "what day is
    /// it today", "the time in Tokyo" to "current time in {timezone}").
    func similarity(
        _ words: ClauseWords, _ vocabulary: SkillVocabulary, _ reading: SlotReading, literals: [Int: String] = [:]
    ) -> Double {
        // A date and the word that introduced it count as the slot the date went to, where the example has
        // one; for a skill without dates a one-word date counts as that word ("what weekday is it today").
        let dates = FreeTextLocator.dateWords(in: words)
        let undated = DateParameter.all(of: vocabulary.spec).isEmpty
        var unused = words.cues.indices.filter { !reading.used.contains($0) && !dates.contains($0) }.map { words.cues[$0] }
        if undated { unused += literals.values }
        let filled = reading.arguments.keys.filter { !reading.placedDates.contains($0) }
        let clause = Set(unused + filled.map(SkillVocabulary.slotToken))
        let placed = Set(reading.placedDates.map(SkillVocabulary.slotToken))
        guard !clause.isEmpty || !placed.isEmpty else { return 0 }
        return vocabulary.exampleWords.map { example in
            let words = clause.union(placed.intersection(example))
            return Double(example.intersection(words).count) / Double(example.union(words).count)
        }.max() ?? 0
    }

    /// The reading of `clause` for one tool: the values in its words (each date one placeholder word), then
    /// the dates placed in the tool's date parameters (``TemporalPlacement``).
    func reading(
        _ clause: PlannerClause, _ vocabulary: SkillVocabulary, placement: TemporalPlacement
    ) -> (words: ClauseWords, literals: [Int: String], reading: SlotReading) {
        let chosen = clause.mentions(for: vocabulary)
        let (held, literals) = clause.substituted(chosen)
        let words = ClauseWords(words: held)
        var reading = extractor.read(words, for: vocabulary)
        reading.extractedCount = reading.typedCount
        let spec = vocabulary.spec
        let parameters = DateParameter.all(of: spec)
        var placed = Set<Int>()
        let marked = reading.arguments.members.compactMap { name, value -> (String, Int)? in
            value.stringValue.flatMap(PlannerClause.mentionIndex).map { (name, $0) }
        }
        for (name, index) in marked {
            reading.arguments[name] = nil
            placed.insert(index)
            guard let parameter = parameters.first(where: { $0.name == name }) else { continue }
            let found = placement.place(clause.mentions[index], into: parameter, spec: spec, arguments: &reading.arguments)
            reading.problem = reading.problem ?? found
        }
        let rest = chosen.filter { !placed.contains($0) }.map { clause.mentions[$0] }
        if reading.problem == nil, !rest.isEmpty {
            let before = Set(reading.arguments.keys)
            reading.problem = placement.placeRemaining(rest, spec: spec, arguments: &reading.arguments)
            reading.placedDates = Set(reading.arguments.keys).subtracting(before)
            if reading.problem == nil { reading.typedCount += rest.count }
        }
        reading.problem = reading.problem ?? TemporalResidue.problem(spec, reading.arguments)
        reading.missing = vocabulary.required.filter { reading.arguments[$0] == nil }
        if let unreadable = reading.unreadable, reading.arguments[unreadable.parameter] != nil { reading.unreadable = nil }
        return (words, literals, reading)
    }

    /// The score of one tool for the clause.
    func score(_ clause: PlannerClause, _ vocabulary: SkillVocabulary, placement: TemporalPlacement) -> Score {
        let (words, literals, reading) = self.reading(clause, vocabulary, placement: placement)
        var matched = 0.0
        var unmatched = 0
        var known = 0
        var seen = Set<String>()
        for (index, stem) in words.stems.enumerated() where !reading.used.contains(index) {
            // Each word counts once: "what day will it be in 3 days" is not twice about days.
            guard let stem, seen.insert(stem).inserted else { continue }
            if let weight = vocabulary.weights[stem] {
                matched += weight / max(1, frequency[stem] ?? 1).squareRoot()
                known += 1
            } else {
                unmatched += 1
            }
        }
        let similarity = similarity(words, vocabulary, reading, literals: literals)
        // Free text found only as "the rest of the clause" could swallow anything, so it does not make a
        // clause close to an example; quoted text or text after a colon does.
        let tookText = vocabulary.slots.contains { $0.kind == .text && reading.arguments[$0.name] != nil }
        let close = similarity >= Self.closeSimilarity && (reading.explicitText || !tookText)
        let bonus = matched > 0 || close ? Double(reading.typedCount) * Self.valueBonus + similarity * Self.phraseWeight : 0
        let lacking = reading.missing.count + (reading.unreadable == nil ? 0 : 1) + (reading.problem == nil ? 0 : 1)
        let total = matched - Double(unmatched) * Self.unknownPenalty + bonus - Double(lacking) * Self.missingPenalty
        return Score(
            vocabulary: vocabulary, reading: reading, matched: matched, unmatched: unmatched, knownWords: known, total: total,
            closeToExample: close, similarity: similarity,
            evidence: total - Double(reading.typedCount - reading.extractedCount) * Self.valueBonus
                + (reading.problem == nil ? 0 : Self.missingPenalty))
    }
}
