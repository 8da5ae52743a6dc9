import SkillJSON

extension SkillDescription {
    /// The skill as `list --json` shows it: id, title, description, enabled, permission, output_schema (the
    /// manifest's result schema, null when it declares none).
    public var summaryJSON: JSONValue {
        [
            "id": .string(self.id), "title": .string(self.title), "description": .string(self.description),
            "enabled": .bool(enabled), "permission": .string(self.permission.rawValue),
            "output_schema": manifest.outputSchema ?? .null,
        ]
    }

    /// The skill as `inspect SKILL_ID --json` shows it: the summary plus parameters, timeout, idempotent,
    /// examples, summary template (null when none), approval, rate limit, plugin id and path.
    public var detailJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { return summaryJSON }
        object["parameters"] = self.parameters
        object["timeout"] = timeout == timeout.rounded() && abs(timeout) < 1e15 ? .int(Int64(timeout)) : .double(timeout)
        object["idempotent"] = .bool(self.idempotent)
        object["examples"] = .array(self.examples.map(JSONValue.string))
        object["summary"] = self.summary.map(JSONValue.string) ?? .null
        object["approval"] = .string(approval.rawValue)
        object["rate_limit_per_minute"] = rateLimitPerMinute.map { .int(Int64($0)) } ?? .null
        object["plugin"] = .string(pluginID)
        object["path"] = .string(pluginPath)
        return .object(object)
    }
}

extension PluginRecord {
    /// The plugin as `list --json` shows it: id, path, status, enabled, error, skills (summaries).
    public var summaryJSON: JSONValue {
        [
            "id": .string(id), "kind": "plugin", "path": .string(path), "status": .string(status.rawValue),
            "enabled": .bool(enabled),
            "error": error.map(JSONValue.string) ?? .null, "skills": .array(skills.map(\.summaryJSON)),
        ]
    }

    /// The plugin as `inspect PLUGIN_ID --json` shows it: the summary plus name, version, description,
    /// thread safety and isolation.
    public var detailJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { return summaryJSON }
        object["name"] = manifest.map { .string($0.name) } ?? .null
        object["version"] = manifest.map { .string($0.version) } ?? .null
        object["description"] = manifest.map { .string($0.description) } ?? .null
        object["abi_version"] = manifest.map { .string($0.abiVersion) } ?? .null
        object["thread_safe"] = manifest.map { .bool($0.threadSafe) } ?? .null
        object["isolation"] = .string(settings.isolation.rawValue)
        return .object(object)
    }
}

extension Catalog {
    /// `{"plugins": [...]}` as `list --json` prints it.
    /// Instruction skills follow the plugins in the same array, with `"kind": "instructions"`.
    public var json: JSONValue {
        var object: JSONObject = ["plugins": .array(plugins.map(\.summaryJSON) + instructions.map(\.summaryJSON))]
        // A project's skills not loaded (not trusted), a skill that shadows another: only when there are any.
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        return .object(object)
    }
}
