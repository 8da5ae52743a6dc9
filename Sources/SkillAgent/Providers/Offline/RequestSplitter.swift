/// Splits a multi-step request into clauses and strips polite filler, for the offline planner:
/// "what time is it in Tokyo, then count the words in hello world" → two clauses.
enum RequestSplitter {
    /// Phrases that always separate steps, longest first.
    static let separators = [
        ", and then ", " and then ", ", then ", "; then ", ", and after that ", " and after that ", ", after that ",
        " after that ", ", and afterwards ", ", afterwards ", " and finally ", ", finally ",
    ]

    /// Phrases that separate steps only when every part is a step of its own; otherwise they belong to a
    /// slot's text ("summarize Cats sleep. Dogs bark.", "count the words in salt and pepper").
    static let weakSeparators = [[" then ", "; ", ". "], [" and "]]

    /// Words dropped from the start of a clause.
    static let leadingFiller = [
        "please", "can you", "could you", "would you", "will you", "tell me", "i want you to", "i'd like you to", "hey", "ok",
        "okay", "also", "and", "then", "first", "finally", "next", "i want to know", "i'd like to know",
        "i would like to know", "do you know", "let me know", "so", "hi", "just", "kindly",
    ]

    /// Whether "next" before `word` belongs to a date ("next week", "next friday") rather than a sequence.
    static func keepsNext(_ word: String) -> Bool {
        let plain = UtteranceTemplate.normalize(word)
        return ["week", "weekend", "month", "year", "time"].contains(plain) || TemporalScanner.weekdays.contains(plain)
            || TemporalScanner.weekdayAbbreviations[plain] != nil
    }

    /// Words dropped from the end of a clause.
    static let trailingFiller = ["please", "pls", "for me", "thanks", "thank you", "thx"]

    /// The clauses of `text`, in order, without filler; empty clauses are left out.
    static func clauses(of text: String) -> [String] {
        var pieces = [text.replacingNewlines()]
        for separator in separators {
            pieces = pieces.flatMap { piece in piece.splitCaseInsensitive(by: separator) }
        }
        return pieces.map(stripFiller).filter { !$0.isEmpty }
    }

    /// The parts of a clause split at any of `separators`, without filler.
    static func parts(of clause: String, separators: [String]) -> [String] {
        var pieces = [clause]
        for separator in separators {
            pieces = pieces.flatMap { $0.splitCaseInsensitive(by: separator) }
        }
        return pieces.map(stripFiller).filter { !$0.isEmpty }
    }

    /// The clause without filler words at either end and without trailing punctuation.
    static func stripFiller(_ clause: String) -> String {
        var text = clause.trimmingWhitespace()
        var changed = true
        while changed {
            changed = false
            while let last = text.last, ".!?,;".contains(last) {
                text.removeLast()
                changed = true
            }
            text = text.trimmingWhitespace()
            let lowered = text.lowercased()
            for filler in leadingFiller where lowered.hasPrefix(filler + " ") || lowered.hasPrefix(filler + ",") {
                // "next week", "next monday": a date, not a step.
                if filler == "next", let word = lowered.dropFirst(5).split(separator: " ").first, Self.keepsNext(String(word)) { continue }
                text = String(text.dropFirst(filler.count + 1)).trimmingWhitespace()
                changed = true
                break
            }
            let loweredAgain = text.lowercased()
            for filler in trailingFiller where loweredAgain.hasSuffix(" " + filler) || loweredAgain.hasSuffix(", " + filler) {
                text = String(text.dropLast(filler.count + 1)).trimmingWhitespace()
                changed = true
                break
            }
        }
        return text
    }
}

extension String {
    /// The string split at each case-insensitive occurrence of `separator` (ASCII separators only) outside
    /// quoted passages, so "summarize 'eat, then sleep'" stays one clause.
    func splitCaseInsensitive(by separator: String) -> [String] {
        let lowered = Array(lowercased().utf8)
        let original = Array(utf8)
        let needle = Array(separator.lowercased().utf8)
        // Lowercasing ASCII keeps byte offsets; for other text, fall back to an exact split.
        guard lowered.count == original.count, !needle.isEmpty else {
            return components(separatedBy: separator)
        }
        let quoted = quotedByteRanges()
        var parts: [String] = []
        var start = 0
        var index = 0
        while index + needle.count <= lowered.count {
            if let passage = quoted.first(where: { $0.contains(index) }) {
                index = passage.upperBound
            } else if Array(lowered[index..<(index + needle.count)]) == needle {
                parts.append(String(decoding: original[start..<index], as: UTF8.self))
                index += needle.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: original[start...], as: UTF8.self))
        return parts
    }

    /// UTF-8 offsets of quoted passages: from an opening quote (`"`, `“`, or `'`/`‘` at the start of a
    /// word) to its closing quote (for single quotes, at the end of a word). An unclosed quote quotes nothing.
    func quotedByteRanges() -> [Range<Int>] {
        let characters = Array(self)
        var offsets: [Int] = []
        var offset = 0
        for character in characters {
            offsets.append(offset)
            offset += character.utf8.count
        }
        offsets.append(offset)
        let closers: [Character: Set<Character>] = ["\"": ["\""], "“": ["”", "\""], "'": ["'", "’"], "‘": ["’", "'"]]
        var ranges: [Range<Int>] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let wordStart = index == 0 || characters[index - 1].isWhitespace
            guard let closing = closers[character], character == "\"" || character == "“" || wordStart else {
                index += 1
                continue
            }
            let single = character == "'" || character == "‘"
            var end = index + 1
            while end < characters.count {
                let wordEnd = end + 1 == characters.count || characters[end + 1].isWhitespace || ".,!?;:".contains(characters[end + 1])
                if closing.contains(characters[end]), !single || wordEnd { break }
                end += 1
            }
            guard end < characters.count else {
                index += 1
                continue
            }
            ranges.append(offsets[index]..<offsets[end + 1])
            index = end + 1
        }
        return ranges
    }

    /// Exact split on a separator string.
    func components(separatedBy separator: String) -> [String] {
        split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }

    /// Newlines as spaces.
    func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
