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
    /// Whether the free text was marked off by quotes or a colon.
    var explicitText = false
    /// A value the user seems to give but that does not fit its parameter.
    var unreadable: Unreadable?
    /// A date or time the user said that cannot be placed in the tool as said.
    var problem: TemporalPlacement.Problem?
    /// Typed values found in the words themselves (not dates placed afterwards).
    var extractedCount = 0
    /// Parameters a date was placed in without a slot of its own.
    var placedDates = Set<String>()

    /// Whether the tool can be called with these arguments: nothing required is missing and nothing the
    /// user gave was left unread or unplaced.
    var canRun: Bool { missing.isEmpty && unreadable == nil && problem == nil }

    /// Words in a parameter's place that are not a value of it.
    struct Unreadable: Sendable, Equatable {
        var parameter: String
        var text: String
    }
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

    /// The reading of `words` for the tool described by `vocabulary`.
    func read(_ words: ClauseWords, for vocabulary: SkillVocabulary) -> SlotReading {
        let slots = vocabulary.slots
        var candidates = typedCandidates(words, slots: slots)
        var reading = SlotReading()
        let textSlot = slots.firstIndex { $0.kind == .text && $0.required } ?? slots.firstIndex { $0.kind == .text }
        if let textSlot {
            let locator = FreeTextLocator(words: words, slot: slots[textSlot], vocabulary: vocabulary, candidates: candidates)
            if let span = locator.span() {
                reading.arguments[slots[textSlot].name] = .string(span.text)
                reading.used.formUnion(span.consumed)
                reading.explicitText = span.explicit
                candidates.removeAll { $0.range.overlaps(span.consumed) }
            }
        }
        // Best first: more cue points, longer spans, earlier in the clause, then by parameter name.
        candidates.sort {
            ($0.score, $0.range.count, -$0.range.lowerBound, slots[$1.slot].name)
                > ($1.score, $1.range.count, -$1.range.lowerBound, slots[$0.slot].name)
        }
        var filled = Set<Int>()
        for candidate in candidates where !filled.contains(candidate.slot) {
            guard reading.used.isDisjoint(with: candidate.range) else { continue }
            filled.insert(candidate.slot)
            reading.used.formUnion(candidate.range)
            guard candidate.value != .null else { continue }
            reading.arguments[slots[candidate.slot].name] = candidate.value
            reading.typedCount += 1
        }
        reading.missing = vocabulary.required.filter { reading.arguments[$0] == nil }
        reading.unreadable = unreadable(words, slots: slots, vocabulary: vocabulary, reading: reading)
        return reading
    }

    /// The first value the user seems to give but that does not fit its parameter: unknown words right
    /// after a cue of an unfilled typed parameter ("what time is it on Mars": Mars is no time zone).
    func unreadable(
        _ words: ClauseWords, slots: [SkillVocabulary.Slot], vocabulary: SkillVocabulary, reading: SlotReading
    ) -> SlotReading.Unreadable? {
        for slot in slots where reading.arguments[slot.name] == nil && [.zone, .date, .choice].contains(slot.kind) {
            let cues = slot.kind == .zone ? slot.before.union(["in", "on", "at", "for"]) : slot.before
            for index in words.cues.indices where cues.contains(words.cues[index]) && !reading.used.contains(index) {
                var start = index + 1
                while start < words.count, FreeTextLocator.determiners.contains(words.cues[start]) { start += 1 }
                var end = start
                while end < words.count, !reading.used.contains(end), let stem = words.stems[end], vocabulary.weights[stem] == nil {
                    end += 1
                }
                guard end > start else { continue }
                let text = words.text(start..<end).trimmingCharacters(in: .punctuationCharacters)
                return SlotReading.Unreadable(parameter: slot.name, text: text)
            }
        }
        return nil
    }

    /// Every span of up to four words (outside quotes) that a typed parameter accepts.
    func typedCandidates(_ words: ClauseWords, slots: [SkillVocabulary.Slot]) -> [Candidate] {
        let numbers = slots.filter { $0.kind == .number }
        var candidates: [Candidate] = []
        for (index, slot) in slots.enumerated() where slot.kind != .text {
            let longest = [.zone, .date].contains(slot.kind) ? 4 : [.file, .folder].contains(slot.kind) ? 3 : 1
            for start in 0..<words.count {
                for end in (start + 1)...min(words.count, start + longest) {
                    let range = start..<end
                    if let quoted = words.quoted?.range, quoted.overlaps(range) { continue }
                    let raw = Array(words.original[range])
                    guard let value = value(for: raw, slot: slot) else { continue }
                    let cue = cueScore(words, range: range, slot: slot) + afterDateScore(words, range: range, slot: slot, slots: slots)
                    // A date goes to a date slot here only next to its cue ("until friday"); the others are
                    // placed by role afterwards (TemporalPlacement).
                    let recognisable =
                        switch slot.kind {
                        case .zone, .choice, .glob: true
                        case .file, .folder: PathWords.path(raw, folder: slot.kind == .folder)?.recognisable ?? false
                        default: false
                        }
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
            let end = candidates[index].range.upperBound
            if candidates.contains(where: { follows.contains(slots[$0.slot].name) && $0.range.lowerBound == end }) {
                candidates[index].score += 1
                candidates[index].cued = true
            }
        }
        return candidates
    }

    /// Points for a value right after a date ("9:30 in New York", "3pm London time") when an example puts
    /// the slot right after a date slot ("{time} {from_timezone} in …"): the date is written in that zone.
    func afterDateScore(_ words: ClauseWords, range: Range<Int>, slot: SkillVocabulary.Slot, slots: [SkillVocabulary.Slot]) -> Int {
        let dates = Set(slots.filter { $0.kind == .date }.map(\.name))
        guard !slot.afterSlots.isDisjoint(with: dates) else { return 0 }
        var before = range.lowerBound - 1
        if before >= 0, words.cues[before] == "in" { before -= 1 }
        guard before >= 0, PlannerClause.mentionIndex(words.original[before]) != nil else { return 0 }
        return 2
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

    /// The value of a typed parameter for these words (as typed), strictly: nil unless the words clearly
    /// are one. A date parameter takes only a placeholder word (``PlannerClause``): its value is the
    /// placeholder until ``TemporalPlacement`` writes the date. `.null` stands for words that name the
    /// parameter's default ("my documents" for the root folder): they are used, and the parameter stays out.
    func value(for raw: [String], slot: SkillVocabulary.Slot) -> JSONValue? {
        guard !raw.isEmpty, !raw.contains(where: \.isEmpty) else { return nil }
        let placeholders = raw.filter { PlannerClause.mentionIndex($0) != nil }.count
        if slot.kind == .date {
            return raw.count == 1 && placeholders == 1 ? .string(raw[0]) : nil
        }
        guard placeholders == 0 else { return nil }
        let words = raw.map(Self.trimmed)
        guard !words.contains(where: \.isEmpty) else { return nil }
        switch slot.kind {
        case .zone:
            return Self.zone(words).map { .string($0) }
        case .number:
            guard case let number? = filler.value(for: words, schema: slot.schema, parameter: slot.name) else { return nil }
            let amount = number.doubleValue ?? 0
            if let minimum = slot.schema?["minimum"]?.doubleValue, amount < minimum { return nil }
            if let maximum = slot.schema?["maximum"]?.doubleValue, amount > maximum { return nil }
            return number
        case .choice, .flag, .word:
            return filler.value(for: words, schema: slot.schema, parameter: slot.name)
        case .file, .folder:
            return PathWords.path(raw, folder: slot.kind == .folder)?.value
        case .glob:
            return PathWords.glob(raw)
        case .date, .text:
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

    static let marks: Set<Character> = [",", ".", "!", "?", ";", ":", "\"", "(", ")", "“", "”"]

    /// A word without punctuation around it, case kept ("Tokyo?" → "Tokyo", "10am." → "10am").
    static func trimmed(_ word: String) -> String {
        var text = Substring(word)
        while let first = text.first, marks.contains(first) { text = text.dropFirst() }
        while let last = text.last, marks.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
