import SkillJSON

extension PluginRecord {
    /// The publisher as `list --json` and `inspect --json` show it: `{"key_id", "name", "verified",
    /// "problem"}`, null for a plugin installed without a signature.
    public var publisherJSON: JSONValue {
        guard let signature else { return .null }
        return [
            "key_id": signature.keyID.map(JSONValue.string) ?? .null,
            "name": signature.publisher.map { .string($0.name) } ?? .null,
            "verified": .bool(signature.verifiedKeyID != nil),
            "problem": signature.problem.map(JSONValue.string) ?? .null,
        ]
    }

    /// The publisher in words: "Acme (key …), signature verified", what is wrong with the signature, or
    /// "none (unsigned)".
    public var publisherText: String { signature?.label ?? "none (installed unsigned or from a .so file)" }

    /// What the administrator's policy decided, one line each naming the rule (empty when nothing).
    public var policyJSON: JSONValue { .array(policyNotes.map(JSONValue.string)) }
}
