/// Tokenizing a text into words, sentences and paragraphs, without Foundation.
struct TextAnalysis {
    /// The text as given.
    let text: String
    /// The sentences, trimmed, in order.
    let sentences: [Substring]
    /// The words, lowercased, in order (letters and digits, with inner apostrophes and hyphens).
    let words: [String]

    init(_ text: String) {
        self.text = text
        sentences = TextAnalysis.sentences(in: text)
        words = TextAnalysis.words(in: text)
    }

    /// Paragraphs: runs of non-blank lines.
    var paragraphCount: Int {
        var count = 0
        var inParagraph = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let blank = line.allSatisfy(\.isWhitespace)
            if !blank && !inParagraph { count += 1 }
            inParagraph = !blank
        }
        return count
    }

    /// Words that carry meaning: not stop words, not numbers, at least two letters.
    static func isContentWord(_ word: String) -> Bool {
        word.count > 1 && !StopWords.english.contains(word) && !word.allSatisfy(\.isNumber)
    }

    /// Lowercased words of `text`. Chinese and Japanese text does not separate words with spaces: each
    /// Han, Hiragana or Katakana character counts as one word, the convention word processors use.
    static func words(in text: some StringProtocol) -> [String] {
        var words: [String] = []
        var current = ""
        var pendingJoiner: Character?
        for character in text {
            if isCJK(character) {
                if !current.isEmpty { words.append(current) }
                current = ""
                pendingJoiner = nil
                words.append(String(character))
            } else if character.isLetter || character.isNumber {
                if let joiner = pendingJoiner, !current.isEmpty { current.append(joiner) }
                pendingJoiner = nil
                current.append(contentsOf: character.lowercased())
            } else if character == "'" || character == "’" || character == "-", !current.isEmpty, pendingJoiner == nil {
                pendingJoiner = character == "’" ? "'" : character
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                pendingJoiner = nil
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Whether `character` is written without spaces between words: a Han ideograph, Hiragana or Katakana.
    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        switch scalar {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
            0x20000...0x2FA1F:
            return true
        default:
            return false
        }
    }

    /// Sentence ends that need no space after them (Chinese and Japanese full-width punctuation).
    static let fullWidthSentenceEnds: Set<Character> = ["。", "！", "？", "．"]

    /// Sentences: text up to '.', '!', '?' or '…' followed by a space and a capital, digit or quote, or up
    /// to a blank line; common abbreviations ("e.g.", "Dr.") do not end a sentence.
    static func sentences(in text: String) -> [Substring] {
        var sentences: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        func emit(upTo end: String.Index) {
            let sentence = text[start..<end].trimmingWhitespace()
            if sentence.contains(where: { $0.isLetter || $0.isNumber }) { sentences.append(sentence) }
            start = end
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\n", next < text.endIndex,
                text[next...].prefix(while: { $0 != "\n" }).allSatisfy(\.isWhitespace)
            {
                emit(upTo: next)
            } else if fullWidthSentenceEnds.contains(character) {
                var end = next
                while end < text.endIndex, "」』）】〕\"'”’。！？".contains(text[end]) { end = text.index(after: end) }
                emit(upTo: end)
                index = end
                continue
            } else if ".!?…".contains(character) {
                var end = next
                while end < text.endIndex, ".!?…\"')”’]".contains(text[end]) { end = text.index(after: end) }
                let rest = text[end...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" })
                let startsNew = rest.first.map { $0.isUppercase || $0.isNumber || "\"“'‘(".contains($0) } ?? true
                let separated = end == text.endIndex || text[end].isWhitespace
                if separated && startsNew && !(character == "." && endsWithAbbreviation(text[start..<index])) {
                    emit(upTo: end)
                    index = end
                    continue
                }
                index = end
                continue
            }
            index = next
        }
        emit(upTo: text.endIndex)
        return sentences
    }

    private static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "inc", "ltd", "co", "no",
        "fig", "approx", "dept", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ]

    private static func endsWithAbbreviation(_ text: Substring) -> Bool {
        let lastWord = text.split(whereSeparator: \.isWhitespace).last.map { $0.lowercased() } ?? ""
        if abbreviations.contains(lastWord) { return true }
        // A single letter ("J. Smith") is an initial.
        return lastWord.count == 1 && lastWord.first!.isLetter
    }
}

extension Substring {
    /// The substring without leading and trailing whitespace.
    func trimmingWhitespace() -> Substring {
        let trimmedStart = drop(while: \.isWhitespace)
        var end = trimmedStart.endIndex
        while end > trimmedStart.startIndex, trimmedStart[trimmedStart.index(before: end)].isWhitespace {
            end = trimmedStart.index(before: end)
        }
        return trimmedStart[trimmedStart.startIndex..<end]
    }
}
