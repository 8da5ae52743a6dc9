import SkillJSON

/// The values a choice parameter allows and the names people use for them, read from its schema: the
/// `enum` values themselves, plus, for each `anyOf`/`oneOf` branch with a `const`, its `title` and the
/// comma-separated names of its `description` (what ``SchemaProperty/choice`` in the SDK writes:
/// `{"const": "km", "title": "kilometre", "description": "kilometre, kilometer"}`).
struct ChoiceNames: Sendable {
    /// Each allowed value with its names (the value's own text first), in schema order.
    let options: [(value: JSONValue, names: [String])]

    /// nil when the schema is not a choice (no `enum` and no branches with `const`).
    init?(_ schema: JSONValue?) {
        var options: [(value: JSONValue, names: [String])] = []
        for value in schema?["enum"]?.arrayValue ?? [] {
            options.append((value, value.stringValue.map { [$0] } ?? []))
        }
        for branch in (schema?["anyOf"]?.arrayValue ?? []) + (schema?["oneOf"]?.arrayValue ?? []) {
            guard let value = branch["const"] else { continue }
            var names = [branch["title"]?.stringValue].compactMap { $0 }
            names += (branch["description"]?.stringValue ?? "").split(separator: ",").map { String($0).trimmingWhitespace() }
            let named = names.filter { !$0.isEmpty }
            if let index = options.firstIndex(where: { $0.value == value }) {
                options[index].names += named
            } else {
                options.append((value, (value.stringValue.map { [$0] } ?? []) + named))
            }
        }
        guard !options.isEmpty else { return nil }
        self.options = options
    }

    /// Every name of every value, for the words that make a clause read as the skill.
    var allNames: [String] { options.flatMap(\.names) }

    /// The value `text` names: a value or a name, ignoring case, in the singular or the plural ("days" for
    /// "day", "kilometers" for "kilometer", "inches" for "inch"), else by word stems.
    func value(named text: String) -> JSONValue? {
        let wanted = text.lowercased()
        func same(_ name: String) -> Bool {
            let name = name.lowercased()
            return name == wanted || name + "s" == wanted || name + "es" == wanted || wanted + "s" == name
        }
        if let exact = options.first(where: { $0.value.serialized() == text || $0.names.contains(where: same) }) {
            return exact.value
        }
        let stems = WordNormalizer.stems(of: text)
        guard !stems.isEmpty else { return nil }
        return options.first { option in option.names.contains { WordNormalizer.stems(of: $0) == stems } }?.value
    }
}
