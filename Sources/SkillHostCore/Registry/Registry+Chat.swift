import SkillJSON

extension Registry {
    /// The registry's `chat` object: the model and agent settings `chat` and `ui` fall back on after their
    /// flags and environment (`provider`, `base_url`, `model`, `context_tokens`, `max_steps`; docs/registry.md).
    /// What they mean and which values are valid is SkillAgent's (`ChatSettings`).
    public var chat: JSONObject { document["chat"]?.objectValue ?? JSONObject() }

    /// Sets (or with nil removes) one member of the `chat` object (removing the object when it empties).
    public mutating func setChatValue(_ value: JSONValue?, forKey key: String) {
        var object = chat
        object[key] = value
        document["chat"] = object.isEmpty ? nil : .object(object)
    }
}
