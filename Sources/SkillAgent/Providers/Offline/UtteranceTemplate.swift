/// An example utterance from a manifest, such as `remind me to {title} at {time}`: literal words and
/// `{parameter}` slots. Matching is word by word, ignoring case and punctuation around words; a slot takes
/// one or more words, and the slot's parameter schema decides which words it accepts (see ``SlotFiller``).
struct UtteranceTemplate: Sendable, Equatable {
    /// One part of a template.
    enum Piece: Sendable, Equatable {
        /// A word that must appear (lowercased, punctuation stripped).
        case word(String)
        /// A parameter that takes one or more words.
        case slot(String)
    }

    /// The parts, in order.
    let pieces: [Piece]
    /// The text it came from.
    let text: String

    /// Parses `text`; nil when it has no literal word, a slot is not closed or a slot is glued to a word.
    init?(_ text: String) {
        var pieces: [Piece] = []
        for raw in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            if raw.hasPrefix("{") {
                let name = raw.dropFirst().dropLast()
                guard raw.hasSuffix("}"), !name.isEmpty, !name.contains("{"), !name.contains("}") else { return nil }
                pieces.append(.slot(String(name)))
            } else if raw.contains("{") || raw.contains("}") {
                return nil  // a slot glued to a word ("at{time}") is not supported
            } else {
                let word = Self.normalize(raw)
                if !word.isEmpty { pieces.append(.word(word)) }
            }
        }
        // Slots alone would match any sentence ("{a} {b}").
        guard pieces.contains(where: { if case .word = $0 { true } else { false } }) else { return nil }
        self.pieces = pieces
        self.text = text
    }

    /// A template of these pieces.
    init(pieces: [Piece], text: String) {
        self.pieces = pieces
        self.text = text
    }

    /// The template without the slots in `names` and without a word such as "at" or "from" right before
    /// one ("remind me to {title} at {due}" → "remind me to {title}"), for a request whose dates were taken
    /// out to be placed on their own; nil when nothing is left out or no literal word is left.
    func without(_ names: Set<String>) -> UtteranceTemplate? {
        var kept: [Piece] = []
        for piece in pieces {
            if let name = piece.slotName, names.contains(name) {
                if case .word(let word)? = kept.last, TemporalScanner.leads.contains(word) { kept.removeLast() }
                continue
            }
            kept.append(piece)
        }
        guard kept.count < pieces.count, kept.contains(where: { $0.slotName == nil }) else { return nil }
        return UtteranceTemplate(pieces: kept, text: text)
    }

    /// The number of literal words: more literal words make a more specific (better) match.
    var literalCount: Int { pieces.filter { if case .word = $0 { return true } else { return false } }.count }

    /// All the ways `words` fit this template: slot name → the words it took (original spelling).
    /// `accepts` says whether a slot may take a given run of words; `alternates` gives a word another
    /// spelling a literal may match (a date read as a placeholder word, "today").
    func matches(_ words: [String], alternates: [Int: String] = [:], accepts: (String, [String]) -> Bool) -> [[String: [String]]] {
        let normalized = words.map(Self.normalize)
        var results: [[String: [String]]] = []
        var captured: [String: [String]] = [:]
        func walk(_ piece: Int, _ position: Int) {
            if results.count >= 8 { return }
            if piece == pieces.count {
                if position == words.count { results.append(captured) }
                return
            }
            switch pieces[piece] {
            case .word(let word):
                if position < words.count, normalized[position] == word || alternates[position] == word {
                    walk(piece + 1, position + 1)
                }
            case .slot(let name):
                guard position < words.count else { return }
                for end in (position + 1)...words.count {
                    let run = Array(words[position..<end])
                    guard accepts(name, run) else { continue }
                    let previous = captured[name]
                    captured[name] = run
                    walk(piece + 1, end)
                    captured[name] = previous
                }
            }
        }
        walk(0, 0)
        return results
    }

    static let punctuation: Set<Character> = [",", ".", "!", "?", ";", ":", "\"", "'", "(", ")", "“", "”", "‘", "’"]

    /// Lowercases a word and strips punctuation at its ends (keeps inner marks: "10:00", "don't").
    static func normalize<S: StringProtocol>(_ word: S) -> String {
        var text = Substring(word.lowercased())
        while let first = text.first, punctuation.contains(first) { text = text.dropFirst() }
        while let last = text.last, punctuation.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

extension UtteranceTemplate.Piece {
    /// The parameter name of a slot; nil for a word.
    var slotName: String? {
        if case .slot(let name) = self { return name }
        return nil
    }
}
