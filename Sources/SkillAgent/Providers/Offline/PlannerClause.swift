/// One clause as the planner reads it: its words (contractions written out) and the dates and times in
/// them. A date is read once, here, for every skill; each skill then sees it as one placeholder word where
/// the words were (so "on friday at 3pm" is one value in a slot), or not at all (so "schedule a dentist
/// appointment on friday at 3pm" reads as "schedule a dentist appointment" plus a date to place).
struct PlannerClause: Sendable {
    /// The clause as the user wrote it (without filler).
    let text: String
    /// Its words, contractions written out.
    let words: [String]
    /// The dates and times in it, in order (none in quoted text or after a colon).
    let mentions: [TemporalMention]
    /// Today, in the user's zone.
    let today: LocalDay

    init(_ text: String, scanner: TemporalScanner) {
        self.text = text
        today = scanner.calendar.today
        let clause = ClauseWords(text)
        words = clause.original
        var blocked = Set<Int>()
        if let quoted = clause.quoted { blocked.formUnion(quoted.range) }
        if let afterColon = clause.afterColon { blocked.formUnion(afterColon..<clause.count) }
        mentions = scanner.mentions(in: words, blocked: blocked)
    }

    /// The mark that starts a placeholder word (a private-use character no one types).
    static let mark: Character = "\u{E000}"

    /// The placeholder word of mention `index`.
    static func placeholder(_ index: Int) -> String { String(mark) + String(index) }

    /// The mention index a placeholder word stands for, or nil for any other word.
    static func mentionIndex(_ word: String) -> Int? {
        guard word.first == mark else { return nil }
        return Int(word.dropFirst())
    }

    /// The mentions a tool reads as dates. A tool without a date parameter that takes free text reads them
    /// as text ("count the words in see you tomorrow"); a tool that takes a unit itself reads "in 3 days" as an amount and a unit (clock.add).
    func mentions(for vocabulary: SkillVocabulary) -> [Int] {
        let dated = !DateParameter.all(of: vocabulary.spec).isEmpty
        if !dated, vocabulary.slots.contains(where: { $0.kind == .text }) { return [] }
        return mentions.indices.filter { index in
            guard let unit = mentions[index].offsetUnit else { return true }
            return !vocabulary.slots.contains { $0.kind == .choice && ChoiceNames($0.schema)?.value(named: unit) != nil }
        }
    }

    /// The words with the words of each of `chosen` mentions as one placeholder word (leads kept), and for
    /// each placeholder the mention's text as one word when it is one ("today"), so a template's literal
    /// "today" still matches it.
    func substituted(_ chosen: [Int]) -> (words: [String], literals: [Int: String]) {
        var result: [String] = []
        var literals: [Int: String] = [:]
        var index = 0
        while index < words.count {
            if let mention = chosen.first(where: { mentions[$0].core.lowerBound == index }) {
                if mentions[mention].core.count == 1 { literals[result.count] = UtteranceTemplate.normalize(words[index]) }
                result.append(Self.placeholder(mention))
                index = mentions[mention].core.upperBound
            } else {
                result.append(words[index])
                index += 1
            }
        }
        return (result, literals)
    }

    /// The words without the `chosen` mentions and the words that introduced them.
    func reduced(_ chosen: [Int]) -> [String] {
        let taken = chosen.reduce(into: Set<Int>()) { $0.formUnion(mentions[$1].range) }
        return words.indices.filter { !taken.contains($0) }.map { words[$0] }
    }

    /// Whether `separator` (" and ", ". ") falls inside a date, so the clause must not be split there
    /// ("between december 1 and december 24").
    func splitsADate(_ separator: String) -> Bool {
        let needle = separator.trimmingWhitespace().lowercased()
        return mentions.contains { mention in
            mention.range.dropLast().contains { words[$0].lowercased().hasSuffix(needle) || words[$0].lowercased() == needle }
        }
    }
}
