import CSkillABI
import SkillJSON

extension SkillPlugin {
    /// The manifest the host reads (see docs/architecture.md, "Manifest"): plugin fields, `abi_version`,
    /// `thread_safe: true`, and one entry per skill with its id, schema, permission, timeout,
    /// examples, summary template and output schema (the last three only when set).
    public var manifest: JSONValue {
        let skillEntries: [JSONValue] = skills.map { skill in
            var entry: JSONObject = [
                "id": .string(skillID(of: skill)),
                "title": .string(skill.title),
                "description": .string(skill.description),
                "parameters": skill.parameters,
                "permission": .string(skill.permission.rawValue),
                "timeout": SkillPlugin.number(skill.timeout),
                "idempotent": .bool(skill.isIdempotent),
            ]
            if !skill.examples.isEmpty { entry["examples"] = .array(skill.examples.map(JSONValue.string)) }
            if let summary = skill.summary { entry["summary"] = .string(summary) }
            if let capabilities = skill.capabilities { entry["capabilities"] = capabilities.json }
            if let outputSchema = skill.outputSchema { entry["output_schema"] = outputSchema }
            return .object(entry)
        }
        var manifest: JSONObject = [
            "id": .string(id),
            "name": .string(name),
            "version": .string(version),
            "abi_version": .string(SkillDefaults.abiVersion),
            "description": .string(description),
            "thread_safe": true,
            "skills": .array(skillEntries),
        ]
        if let capabilities { manifest["capabilities"] = capabilities.json }
        return .object(manifest)
    }

    /// This plugin with `capabilities` declared in its manifest (what its sandbox allows).
    public func declaring(_ capabilities: SkillCapabilities) -> SkillPlugin {
        var copy = self
        copy.capabilities = capabilities
        return copy
    }

    /// Whole numbers as JSON integers (`30`, not `30.0`).
    private static func number(_ value: Double) -> JSONValue {
        if value.rounded() == value, let whole = Int64(exactly: value) { return .int(whole) }
        return .double(value)
    }
}
