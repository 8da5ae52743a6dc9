/// Short renderings of instance values for one-line error messages.
enum ValueText {
    /// The value as compact JSON, cut to about 60 characters ("\"abc…\"", "{…3 properties}").
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements) where elements.count > 8: return "an array of \(elements.count) items"
        case .object(let object) where object.count > 6: return "an object with \(object.count) properties"
        default: break
        }
        let text = value.serialized()
        guard text.utf8.count > 60, text.count > 60 else { return text }
        return String(text.prefix(57)) + "…"
    }

    /// A list of values for messages: `"a", "b" or "c"` (at most 10 shown).
    static func list(_ values: [JSONValue]) -> String {
        let shown = values.prefix(10).map(describe)
        let more = values.count > 10 ? " (and \(values.count - 10) more)" : ""
        guard shown.count > 1 else { return (shown.first ?? "nothing") + more }
        return shown.dropLast().joined(separator: ", ") + " or " + shown.last! + more
    }

    /// "a" or "an" for a type name.
    static func article(_ word: String) -> String {
        guard let first = word.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }

    /// A list of names: `"a", "b", "c"`.
    static func names<S: Sequence>(_ names: S) -> String where S.Element == String {
        names.map { describe(.string($0)) }.joined(separator: ", ")
    }
}
