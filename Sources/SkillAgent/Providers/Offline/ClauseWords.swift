/// One clause split into words for scored matching: the original spelling (for values), the cue form
/// (for slot cues), the stem (for scoring; nil for stop words), and where quoted text or a colon puts the
/// free text ("summarize 'A. B. C.' in 2 sentences", "summarize this: A. B. C.").
struct ClauseWords: Sendable {
    /// The words as typed.
    let original: [String]
    /// Cue forms (see ``SkillVocabulary/cueForm(_:)``).
    let cues: [String]
    /// Stems; nil for stop words.
    let stems: [String?]
    /// The words of the first quoted passage, quotes included, and its text without them.
    let quoted: (range: Range<Int>, text: String)?
    /// The index of the first word after a word that ends in a colon, when words follow it.
    let afterColon: Int?

    init(_ clause: String) {
        self.init(words: WordNormalizer.expandingContractions(clause.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)))
    }

    /// The words as given (contractions already written out, dates perhaps as placeholder words).
    init(words: [String]) {
        original = words
        cues = original.map(SkillVocabulary.cueForm)
        stems = original.map { WordNormalizer.isSkillID($0) ? WordNormalizer.normalized($0) : WordNormalizer.stem($0) }
        quoted = Self.firstQuote(in: original)
        let colon = original.firstIndex { $0.hasSuffix(":") }
        let count = original.count
        afterColon = colon.flatMap { $0 + 1 < count ? $0 + 1 : nil }
    }

    var count: Int { original.count }

    /// The original words in `range`, joined by spaces.
    func text(_ range: Range<Int>) -> String {
        original[range].joined(separator: " ")
    }

    static let closers: [Character: Set<Character>] = ["\"": ["\""], "“": ["”", "\""], "'": ["'", "’"], "‘": ["’", "'"]]

    /// The first passage that starts with a quote at a word's start and ends with the same kind of quote at
    /// a word's end (trailing `.,!?;:` after the closing quote allowed).
    static func firstQuote(in words: [String]) -> (range: Range<Int>, text: String)? {
        for start in words.indices {
            guard let open = words[start].first, let closing = closers[open] else { continue }
            for end in start..<words.count {
                var word = Substring(words[end])
                while let last = word.last, ".,!?;:".contains(last) { word = word.dropLast() }
                if end == start { word = word.dropFirst() }
                guard let last = word.last, closing.contains(last) else { continue }
                var text = words[start...end].joined(separator: " ").dropFirst()
                while let last = text.last, !closing.contains(last) { text = text.dropLast() }
                text = text.dropLast()
                let trimmed = String(text).trimmingWhitespace()
                guard !trimmed.isEmpty else { break }
                return (start..<(end + 1), trimmed)
            }
        }
        return nil
    }
}
