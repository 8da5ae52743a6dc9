/// Finds the free text of a tool's text parameter in a clause that no example matched word for word:
/// quoted text ("summarize 'A. B. C.' in 2 sentences"), the words after a colon ("tag this note: buy
/// milk"), or the words after the command ("give me statistics for the text hello world" → "hello world").
/// Words that only name the text ("the text", "this note", "the following") are consumed with it, and
/// typed values with a cue at its end ("… in 2 sentences") are left to their parameters.
struct FreeTextLocator {
    /// The free text and the words it consumes.
    struct Span: Sendable, Equatable {
        /// The words the text and its lead-in take.
        var consumed: Range<Int>
        /// The text as typed.
        var text: String
        /// Whether quotes or a colon marked it off.
        var explicit: Bool
    }

    /// Words that introduce free text in most phrasings ("statistics for …", "keywords of …").
    static let textCues: Set<String> = ["in", "for", "of", "on", "about", "from"]
    /// Words naming the text itself ("for the text …", "of the following: …", "tag this note: …").
    static let textNouns: Set<String> = [
        "text", "following", "string", "message", "passage", "note", "paragraph", "sentence", "phrase", "article",
        "word", "term",
    ]
    static let determiners: Set<String> = ["the", "this", "that", "a", "an", "my", "these", "those"]
    /// Words that stand for a text without being one ("summarize it").
    static let pronouns: Set<String> = ["it", "this", "that", "them", "these", "those", "something", "text"]

    let words: ClauseWords
    let slot: SkillVocabulary.Slot
    let vocabulary: SkillVocabulary
    let candidates: [SlotExtractor.Candidate]

    /// Dates the planner read (placeholder words) and the words that introduced them: never part of the text
    /// ("remind me to call mom on friday about rent" → "call mom about rent").
    var dateWords: Set<Int> { Self.dateWords(in: words) }

    /// The placeholder words in `words` and the words that introduced them.
    static func dateWords(in words: ClauseWords) -> Set<Int> {
        var taken = Set<Int>()
        for index in words.original.indices where PlannerClause.mentionIndex(words.original[index]) != nil {
            taken.insert(index)
            if index > 0, TemporalScanner.leads.contains(words.cues[index - 1]) { taken.insert(index - 1) }
        }
        return taken
    }

    /// The free text, or nil when the clause has none (or only a pronoun: "summarize it").
    func span() -> Span? {
        if let quoted = words.quoted {
            return Span(consumed: leadIn(before: quoted.range.lowerBound)..<quoted.range.upperBound, text: quoted.text, explicit: true)
        }
        let start: Int
        let explicit: Bool
        if let afterColon = words.afterColon {
            start = afterColon
            explicit = true
        } else if let afterCommand = commandEnd() {
            start = afterCommand
            explicit = false
        } else {
            return nil
        }
        var end = endBeforeTrailingValues(from: start)
        let dates = dateWords
        // Nor dates, nor the words an example puts after the text ("… on my calendar", "… as done").
        while end > start + 1, dates.contains(end - 1) || (!explicit && slot.trailing.contains(words.cues[end - 1])) { end -= 1 }
        let kept = (start..<end).filter { !dates.contains($0) }.map { words.original[$0] }
        guard !kept.isEmpty, !Self.isPlaceholder(kept, vocabulary: vocabulary) else { return nil }
        return Span(consumed: leadIn(before: start)..<end, text: kept.joined(separator: " "), explicit: explicit)
    }

    /// Whether free text only refers to a text without being one: pronouns, stop words, numbers and the
    /// tool's own words ("summarize it", "count the words in this sentence", "summarize in 2 sentences").
    static func isPlaceholder(_ words: [String], vocabulary: SkillVocabulary) -> Bool {
        words.allSatisfy { word in
            let cue = SkillVocabulary.cueForm(word)
            guard let stem = WordNormalizer.stem(word) else { return true }
            return pronouns.contains(cue) || cue.allSatisfy(\.isNumber) || vocabulary.weights[stem] != nil
        }
    }

    /// The first word of the lead-in naming the text just before `start` ("the text", "this note:",
    /// "the following:"), or `start` when there is none.
    func leadIn(before start: Int) -> Int {
        var first = start
        if first > 0, Self.textNouns.contains(words.cues[first - 1]) { first -= 1 }
        if first > 0, words.cues[first - 1] == "following" { first -= 1 }
        if first < start, first > 0, Self.determiners.contains(words.cues[first - 1]) { first -= 1 }
        return first
    }

    /// Where the text ends: before typed values with a cue at the end of the clause ("… in 2 sentences").
    func endBeforeTrailingValues(from start: Int) -> Int {
        var end = words.count
        while true {
            let trailing = candidates.filter { candidate in
                guard candidate.cued, candidate.range.lowerBound > start else { return false }
                if candidate.range.upperBound == end { return true }
                // "2 sentences": the value, then a word the tool knows.
                guard candidate.range.upperBound == end - 1, let stem = words.stems[end - 1] else { return false }
                return vocabulary.weights[stem] != nil
            }
            guard let last = trailing.max(by: { $0.score < $1.score }) else { return end }
            end = last.range.lowerBound
            if end - 1 > start, WordNormalizer.stopWords.contains(words.cues[end - 1]) { end -= 1 }
        }
    }

    /// Where free text starts after the command words: after the last cue word ("in", "for", a word that
    /// precedes the slot in an example) among the leading command words, past "the text" / "the following";
    /// nil when the clause does not start with a word of the tool or has no cue.
    func commandEnd() -> Int? {
        var prefix = 0
        var lastCue: Int?
        var lastCommand: Int?
        while prefix < words.count {
            let stem = words.stems[prefix]
            let known = stem.map { vocabulary.weights[$0] != nil } ?? false
            let cue = slot.before.contains(words.cues[prefix]) || Self.textCues.contains(words.cues[prefix])
            let typed = candidates.contains { $0.cued && $0.range.contains(prefix) }
            guard stem == nil || known || cue || typed else { break }
            if cue { lastCue = prefix }
            if known { lastCommand = prefix }
            prefix += 1
        }
        // Without a cue ("… in", "… for", "summarize …") the rest of the clause is no text: "how long have we
        // been running" does not ask for statistics of "have we been running".
        guard lastCommand != nil, let cue = lastCue else { return nil }
        var start = cue + 1
        let cues = words.cues
        var skipped = start
        if skipped < words.count, Self.determiners.contains(cues[skipped]) { skipped += 1 }
        if skipped < words.count, cues[skipped] == "following" { skipped += 1 }
        if skipped < words.count, Self.textNouns.contains(cues[skipped]) { skipped += 1 }
        if skipped > start, Self.textNouns.contains(cues[skipped - 1]) { start = skipped }
        return start < words.count ? start : nil
    }

    /// Free text a template slot took, without a lead-in: "the following: A. B." → "A. B.", "the text
    /// hello world" → "hello world"; nil when it is only a pronoun ("summarize it") or has more than a
    /// quoted passage.
    static func cleaned(_ words: [String], vocabulary: SkillVocabulary) -> [String]? {
        let cues = words.map(SkillVocabulary.cueForm)
        guard !isPlaceholder(words, vocabulary: vocabulary) else { return nil }
        // A quoted passage followed by more words ("'A. B.' in one sentence") is for the scored reading,
        // which keeps the quote as the text and reads the rest.
        if let quote = ClauseWords.firstQuote(in: words), quote.range != words.indices { return nil }
        if let colon = words.prefix(4).firstIndex(where: { $0.hasSuffix(":") }), colon + 1 < words.count {
            return Array(words[(colon + 1)...])
        }
        var skipped = 0
        if skipped < cues.count, determiners.contains(cues[skipped]) { skipped += 1 }
        if skipped < cues.count, cues[skipped] == "following" { skipped += 1 }
        if skipped < cues.count, textNouns.contains(cues[skipped]) { skipped += 1 }
        guard skipped > 0, textNouns.contains(cues[skipped - 1]), skipped < words.count else { return words }
        return Array(words[skipped...])
    }
}
