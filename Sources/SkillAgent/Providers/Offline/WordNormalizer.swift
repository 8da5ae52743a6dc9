/// Reduces words to comparable stems for the offline planner's scored matching: lowercase, punctuation
/// stripped, a few synonyms folded together, and light suffix stripping ("words" → "word", "rebooted" →
/// "reboot", "summarise"/"summary" → "summar"). Stop words and politeness ("please", "what", "the") carry
/// no meaning for choosing a skill and have no stem. Deterministic and table-driven.
enum WordNormalizer {
    /// Words that never decide which skill is meant.
    static let stopWords: Set<String> = [
        "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing",
        "i", "me", "my", "mine", "we", "us", "our", "you", "your", "it", "its", "it's", "this", "that", "these",
        "those", "there", "here", "of", "in", "on", "at", "to", "for", "from", "by", "with", "about", "into",
        "and", "or", "but", "so", "if", "as", "what", "what's", "whats", "how", "how's", "when", "which", "who",
        "where", "why", "please", "pls", "plz", "can", "could", "would", "will", "should", "shall", "may",
        "might", "must", "tell", "give", "show", "get", "let", "know", "want", "need", "like", "i'd", "i'm",
        "some", "just", "kindly", "much", "many", "have", "has", "had", "any", "all", "also", "then", "hey",
        "hi", "ok", "okay", "thanks", "thank", "quickly", "currently", "right", "one", "ones", "out",
        "find", "check", "see", "look", "lemme", "set",
    ]

    /// Words folded to a common stem before suffix stripping (same meaning, different spelling).
    static let synonyms: [String: String] = [
        "stats": "statistic", "stat": "statistic", "statistics": "statistic", "ram": "memory",
        "cpus": "cpu", "processor": "cpu", "processors": "cpu", "cores": "cpu", "core": "cpu",
        "booted": "boot", "rebooted": "reboot", "restart": "reboot", "restarted": "reboot",
        "hostname": "host", "tldr": "tl;dr", "gist": "summar", "summary": "summar", "summaries": "summar",
        "timezone": "zone", "timezones": "zone", "computer": "machine", "box": "machine", "pc": "machine",
        "server": "machine", "host": "host", "info": "information",
    ]

    /// The word lowercased with punctuation stripped at its ends (as ``UtteranceTemplate`` compares words).
    /// A possessive or "is" contraction loses its "'s" ("today's" → "today", "what's" → "what").
    static func normalized<S: StringProtocol>(_ word: S) -> String {
        let plain = UtteranceTemplate.normalize(word)
        for suffix in ["'s", "’s"] where plain.hasSuffix(suffix) && plain.count > 2 {
            return String(plain.dropLast(2))
        }
        return plain
    }

    /// The stem of a word, or nil for a stop word, a number-less empty token or pure punctuation.
    static func stem<S: StringProtocol>(_ word: S) -> String? {
        // A date the planner already read (see PlannerClause) decides nothing by its words.
        if word.first == PlannerClause.mark { return nil }
        let plain = normalized(word)
        guard !plain.isEmpty, !stopWords.contains(plain) else { return nil }
        if let synonym = synonyms[plain] { return strip(synonym) }
        return strip(plain)
    }

    /// Light suffix stripping; the same on both sides of a comparison, so it need not yield real words.
    static func strip(_ word: String) -> String {
        var value = word
        guard value.count > 3, value.allSatisfy({ $0.isLetter }) else { return value }
        if value.hasSuffix("ies"), value.count > 4 {
            value = String(value.dropLast(3)) + "y"
        } else if value.hasSuffix("sses") {
            value.removeLast(2)
        } else if value.hasSuffix("s"), !value.hasSuffix("ss"), !value.hasSuffix("us"), !value.hasSuffix("is") {
            value.removeLast()
        }
        for suffix in ["ization", "isation", "izing", "ising", "ized", "ised", "ize", "ise", "ing", "ed"] where value.hasSuffix(suffix) {
            let rest = value.dropLast(suffix.count)
            guard rest.count >= 3 else { continue }
            value = String(rest)
            // "running" → "runn" → "run"
            if suffix == "ing" || suffix == "ed", let last = value.last, value.dropLast().last == last, !"ls".contains(last) {
                value.removeLast()
            }
            break
        }
        return value
    }

    /// Contractions written out, so "what's 18:00 in Tokyo" meets the example "what is {time} in …".
    static let contractions: [String: [String]] = [
        "what's": ["what", "is"], "how's": ["how", "is"], "where's": ["where", "is"], "when's": ["when", "is"],
        "who's": ["who", "is"], "it's": ["it", "is"], "that's": ["that", "is"], "there's": ["there", "is"],
        "i'm": ["i", "am"], "what're": ["what", "are"], "how're": ["how", "are"], "don't": ["do", "not"],
        "doesn't": ["does", "not"], "isn't": ["is", "not"], "i've": ["i", "have"], "i'd": ["i", "would"],
    ]

    /// The words with contractions written out (case kept for the first part).
    static func expandingContractions(_ words: [String]) -> [String] {
        words.flatMap { word -> [String] in
            let key = word.lowercased().replacingOccurrences(of: "’", with: "'")
            guard let parts = contractions[key] else { return [word] }
            return word.first?.isUppercase == true ? [parts[0].capitalized] + parts.dropFirst() : parts
        }
    }

    /// The stems of the words in `text`, in order (stop words and skill ids such as `clock.add` left out).
    static func stems(of text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "/" || $0 == "(" || $0 == ")" || $0 == "," })
            .filter { !isSkillID($0) }
            .compactMap { stem($0) }
    }

    /// Whether a token names a skill (`clock.add`): descriptions point at other skills that way.
    static func isSkillID<S: StringProtocol>(_ token: S) -> Bool {
        let plain = normalized(token)
        guard let dot = plain.firstIndex(of: "."), dot != plain.startIndex else { return false }
        return plain[plain.index(after: dot)...].first?.isLetter == true
    }
}
