import SkillJSON

extension SchemaProperty {
    /// A string that must be one of a fixed set of values, each with the names people call it, e.g.
    /// `.choice("Unit of the value", ["km": ["kilometre", "kilometer"], "mi": ["mile"]])`.
    ///
    /// The schema holds both an `enum` of the values (what the host validates and the skill receives) and
    /// an `anyOf` with one `{"const", "title", "description"}` branch per value, the standard way to
    /// document enum values: the title is the first name, the description lists all of them. Models read
    /// them, and the offline planner maps what people type ("10 kilometers", "in miles") to the value,
    /// plural forms included. Both keywords are in the subset OpenAI's strict tool mode accepts.
    /// - Parameters:
    ///   - description: what the value means, for the model.
    ///   - choices: each allowed value and its names, in the order they are documented.
    public static func choice(_ description: String, _ choices: KeyValuePairs<String, [String]>) -> SchemaProperty {
        let branches: [JSONValue] = choices.map { value, names in
            var branch: JSONObject = ["const": .string(value)]
            if let first = names.first { branch["title"] = .string(first) }
            if !names.isEmpty { branch["description"] = .string(names.joined(separator: ", ")) }
            return .object(branch)
        }
        return SchemaProperty(schema: [
            "type": "string", "description": .string(description),
            "enum": .array(choices.map { .string($0.key) }), "anyOf": .array(branches),
        ])
    }
}
