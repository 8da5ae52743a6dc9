import SkillJSON

/// Words at the end of a free text that say when but were not read as a date ("call mom later", "stretch
/// at half nine-ish", "pay rent sometime next spring"): for a skill that takes a date, the planner asks
/// when instead of writing them into a title.
enum TemporalResidue {
    /// Words that say when.
    static let timeWords: Set<String> = Set(TemporalScanner.weekdays + TemporalScanner.monthNames).union([
        "later", "soon", "sometime", "someday", "eventually", "asap", "morning", "afternoon", "evening", "night",
        "tonight", "noon", "midnight", "o'clock", "oclock", "am", "pm", "week", "weekend", "month", "year", "tomorrow",
        "today", "tmrw", "spring", "summer", "autumn", "fall", "winter", "hour", "hours", "minutes", "minute", "days",
    ])
    /// Words that may stand among them ("at half past", "some time next").
    static let glue: Set<String> = [
        "at", "on", "by", "in", "next", "this", "the", "around", "about", "half", "past", "quarter", "some", "time", "point",
        "a", "few", "couple", "of", "or", "so", "ish", "early", "late", "before", "after", "until", "from", "to", "one",
    ]

    /// The date-like words `text` ends with, or nil when it ends with none (or is nothing else).
    static func trailing(_ text: String) -> String? {
        let words = text.split(separator: " ").map(String.init)
        var start = words.count
        var dated = false
        while start > 0 {
            let token = TemporalScanner.token(words[start - 1])
            let numeric = token.first?.isNumber == true || SlotFiller.numberWords.contains(token)
            let timeWord = timeWords.contains(token) || token.hasSuffix("ish") && timeWords.contains(String(token.dropLast(3)))
            guard timeWord || numeric || glue.contains(token) else { break }
            dated = dated || timeWord
            start -= 1
        }
        guard dated, start > 0 else { return nil }
        return words[start...].joined(separator: " ")
    }

    /// The problem a free-text argument of a skill that takes a date poses when it ends in date words.
    static func problem(_ spec: ToolSpec, _ arguments: JSONObject) -> TemporalPlacement.Problem? {
        let dates = DateParameter.all(of: spec)
        guard !dates.isEmpty else { return nil }
        let properties = spec.tool.parameters["properties"]
        for (name, value) in arguments.members where SkillVocabulary.kind(of: name, schema: properties?[name]) == .text {
            guard let text = value.stringValue, let residue = trailing(text) else { continue }
            let parameter = dates.first { arguments[$0.name] == nil }?.name ?? dates[0].name
            return TemporalPlacement.Problem(parameter: parameter, text: residue, why: .unreadable)
        }
        return nil
    }
}
