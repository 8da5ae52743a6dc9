import Foundation
import SkillJSON

/// Which arguments one tool would get from a clause that no template matched word for word.
struct SlotReading: Sendable {
    /// The filled arguments.
    var arguments = JSONObject()
    /// Required parameters that nothing in the clause fills.
    var missing: [String] = []
    /// Indices of the words that went into a value (free text included).
    var used = Set<Int>()
    /// How many typed values (zones, dates, numbers, choices) were found.
    var typedCount = 0
}

/// Finds parameter values anywhere in a clause for one tool: typed values (a zone, a date, a number, an
/// enum value) where the schema accepts them, preferring places next to the words that surround the slot
/// in the tool's examples ("in {timezone}", "{sentences} sentences"); and free text from quotes, from after
/// a colon, or from the rest of the clause after the command words ("give me statistics for the text …").
/// Values are never guessed: a number needs a cue unless it is the tool's only required number, and a
/// zone must be a real zone, city or abbreviation.
struct SlotExtractor {
    let filler: SlotFiller

    /// A place a typed value could come from.
    struct Candidate {
        var slot: Int
        var range: Range<Int>
        var value: JSONValue
        /// Cue points (next to an example's neighbour word: 2, or 1 for a stop word) plus 1 for a value
        /// that is recognisable on its own (a zone, a date, an enum value).
        var score: Int
        var cued: Bool
    }

    /// Words that introduce free text in most phrasings ("statistics for …", "keywords of …").
    static let textCues: Set<String> = ["in", "for", "of", "on", "about", "from"]
    /// Words naming the text itself, skipped after a cue ("for the text …", "of the following: …").
    static let textNouns: Set<String> = [
        "text", "following", "string", "message", "passage", "note", "paragraph", "sentence", "phrase", "article",
    ]
    static let determiners: Set<String> = ["the", "this", "that", "a", "an", "my", "these", "those"]

    /// The reading of `words` for the tool described by `vocabulary`.
    func read(_ words: ClauseWords, for vocabulary: SkillVocabulary) -> SlotReading {
        let slots = vocabulary.slots
        var candidates = typedCandidates(words, slots: slots)
        var reading = SlotReading()
        let textSlot = slots.firstIndex { $0.kind == .text && $0.required } ?? slots.firstIndex { $0.kind == .text }
        if let textSlot, let (range, text) = freeText(words, slot: slots[textSlot], vocabulary: vocabulary, candidates: candidates) {
            reading.arguments[slots[textSlot].name] = .string(text)
            reading.used.formUnion(range)
            candidates.removeAll { $0.range.overlaps(range) }
        }
        candidates.sort {
            ($0.score, $0.range.count, -$0.range.lowerBound, slots[$1.slot].name)
                > ($1.score, $1.range.count, -$1.range.lowerBound, slots[$0.slot].name)
        }
        var filled = Set<Int>()
        for candidate in candidates where !filled.contains(candidate.slot) {
            guard reading.used.isDisjoint(with: candidate.range) else { continue }
            filled.insert(candidate.slot)
            reading.arguments[slots[candidate.slot].name] = candidate.value
            reading.used.formUnion(candidate.range)
            reading.typedCount += 1
        }
        reading.missing = slots.filter { $0.required && reading.arguments[$0.name] == nil }.map(\.name)
        return reading
    }

    /// Every span of up to four words (outside quotes) that a typed parameter accepts.
    func typedCandidates(_ words: ClauseWords, slots: [SkillVocabulary.Slot]) -> [Candidate] {
        let numbers = slots.filter { $0.kind == .number }
        var candidates: [Candidate] = []
        for (index, slot) in slots.enumerated() where slot.kind != .text {
            let longest = [.zone, .date].contains(slot.kind) ? 4 : 1
            for start in 0..<words.count {
                for end in (start + 1)...min(words.count, start + longest) {
                    let range = start..<end
                    if let quoted = words.quoted?.range, quoted.overlaps(range) { continue }
                    guard let value = value(for: words.original[range].map(Self.trimmed), slot: slot) else { continue }
                    let cue = cueScore(words, range: range, slot: slot)
                    let recognisable = [.zone, .date, .choice].contains(slot.kind)
                    let onlyNumber = slot.kind == .number && slot.required && numbers.count == 1
                    let score = cue + (recognisable || onlyNumber ? 1 : 0)
                    guard score > 0 else { continue }
                    candidates.append(Candidate(slot: index, range: range, value: value, score: score, cued: cue > 0))
                }
            }
        }
        // A value directly followed by the value of the slot that follows it in an example ("3 days").
        for index in candidates.indices {
            let follows = slots[candidates[index].slot].followedBy
            guard !follows.isEmpty else { continue }
            if candidates.contains(where: { follows.contains(slots[$0.slot].name) && $0.range.lowerBound == candidates[index].range.upperBound }) {
                candidates[index].score += 1
                candidates[index].cued = true
            }
        }
        return candidates
    }

    /// Points for the words around `range` that stand around the slot in the examples.
    func cueScore(_ words: ClauseWords, range: Range<Int>, slot: SkillVocabulary.Slot) -> Int {
        var score = 0
        if range.lowerBound > 0, slot.before.contains(words.cues[range.lowerBound - 1]) {
            score += WordNormalizer.stopWords.contains(words.cues[range.lowerBound - 1]) ? 1 : 2
        }
        if range.upperBound < words.count, slot.after.contains(words.cues[range.upperBound]) {
            score += WordNormalizer.stopWords.contains(words.cues[range.upperBound]) ? 1 : 2
        }
        return score
    }

    /// The value of a typed parameter for these words, strictly: nil unless the words clearly are one.
    func value(for words: [String], slot: SkillVocabulary.Slot) -> JSONValue? {
        guard !words.isEmpty, !words.contains(where: \.isEmpty) else { return nil }
        switch slot.kind {
        case .zone:
            return Self.zone(words).map { .string($0) }
        case .date:
            // A bare number is a count, not a time ("3 weeks"); stop words start no date.
            guard !WordNormalizer.stopWords.contains(words[0].lowercased()), !words.joined().allSatisfy(\.isNumber) else { return nil }
            return filler.value(for: words, schema: slot.schema, parameter: slot.name)
        case .number:
            guard case let number? = filler.value(for: words, schema: slot.schema, parameter: slot.name) else { return nil }
            let amount = number.doubleValue ?? 0
            if let minimum = slot.schema?["minimum"]?.doubleValue, amount < minimum { return nil }
            if let maximum = slot.schema?["maximum"]?.doubleValue, amount > maximum { return nil }
            return number
        case .choice, .flag, .word:
            return filler.value(for: words, schema: slot.schema, parameter: slot.name)
        case .text:
            return nil
        }
    }

    /// A real time zone for these words: an IANA identifier, a city in one ("new york"), or an
    /// abbreviation Foundation knows ("PST"). Stop words never are one.
    static func zone(_ words: [String]) -> String? {
        guard !words.contains(where: { WordNormalizer.stopWords.contains($0.lowercased()) }) else { return nil }
        let text = words.joined(separator: " ")
        if words.count == 1, (2...5).contains(text.count), text.allSatisfy(\.isUppercase),
            TimeZone(abbreviation: text) != nil || TimeZone(identifier: text) != nil
        {
            return text
        }
        guard text.first?.isLetter == true, let zone = SlotFiller.timeZoneIdentifier(text) else { return nil }
        return zone
    }

    /// The free text for `slot` and the words it spans: quoted text, the words after a colon, or the words
    /// after the command ("count the words in …"), without typed values at its end ("… in 2 sentences").
    func freeText(
        _ words: ClauseWords, slot: SkillVocabulary.Slot, vocabulary: SkillVocabulary, candidates: [Candidate]
    ) -> (Range<Int>, String)? {
        if let quoted = words.quoted { return (quoted.range, quoted.text) }
        let start: Int
        if let afterColon = words.afterColon {
            start = afterColon
        } else if let afterCommand = commandEnd(words, slot: slot, vocabulary: vocabulary, candidates: candidates) {
            start = afterCommand
        } else {
            return nil
        }
        var end = words.count
        // Typed values with a cue at the end belong to their slots: "summarize … in 2 sentences".
        while let last = candidates.filter({ $0.cued && $0.range.lowerBound > start && $0.range.upperBound >= end - 1 && $0.range.upperBound <= end }).max(by: { $0.score < $1.score }) {
            guard last.range.upperBound == end || words.stems[end - 1] == nil || vocabulary.weights[words.stems[end - 1] ?? ""] != nil else { break }
            end = last.range.lowerBound
            if end - 1 > start, WordNormalizer.stopWords.contains(words.cues[end - 1]) { end -= 1 }
        }
        guard start < end else { return nil }
        let text = words.text(start..<end)
        return text.isEmpty ? nil : (start..<end, text)
    }

    /// Where free text starts after the command words: after the last cue word ("in", "for", a word that
    /// precedes the slot in an example) among the leading command words, skipping "the text", "the
    /// following"; nil when the clause does not start with a word of the tool.
    func commandEnd(_ words: ClauseWords, slot: SkillVocabulary.Slot, vocabulary: SkillVocabulary, candidates: [Candidate]) -> Int? {
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
        guard let command = lastCommand else { return nil }
        var start = (lastCue ?? command) + 1
        let cues = words.cues
        var skipped = start
        if skipped < words.count, Self.determiners.contains(cues[skipped]) { skipped += 1 }
        if skipped < words.count, cues[skipped] == "following" { skipped += 1 }
        if skipped < words.count, Self.textNouns.contains(cues[skipped]) { skipped += 1 }
        if skipped > start, Self.textNouns.contains(cues[skipped - 1]) { start = skipped }
        return start < words.count ? start : nil
    }

    /// A word without punctuation around it, case kept ("Tokyo?" → "Tokyo", "10am." → "10am").
    static func trimmed(_ word: String) -> String {
        let marks: Set<Character> = [",", ".", "!", "?", ";", ":", "\"", "(", ")", "“", "”"]
        var text = Substring(word)
        while let first = text.first, marks.contains(first) { text = text.dropFirst() }
        while let last = text.last, marks.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
