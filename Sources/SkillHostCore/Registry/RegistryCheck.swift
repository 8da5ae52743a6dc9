import SkillJSON

/// Checks the members of a registry document the host knows, so a typo by hand fails with the file, the
/// JSON pointer and the expected value instead of being ignored.
struct RegistryCheck {
    let registry: Registry

    func run() throws(HostError) {
        let root = registry.document
        if let version = root["version"] {
            guard let number = version.intValue, number >= 1 else {
                throw fail("/version", "must be the number 1, got \(version.serialized())")
            }
            guard number <= Registry.currentVersion else {
                throw fail("/version", "is \(number): the file was written by a newer skillhost; upgrade skillhost")
            }
        }
        try checkEnum(root["new_plugins"], NewPluginState.allCases.map(\.rawValue), "/new_plugins")
        try checkEnum(root["trust"], TrustPolicy.allCases.map(\.rawValue), "/trust")
        try checkPublishers(root["publishers"])
        try checkTrustedFolders(root["trusted_folders"])
        try checkMCPServers(root["mcp_servers"])
        let defaults = try object(root["defaults"], "/defaults")
        _ = try wrap { () throws(HostError) in
            try Self.pluginSettings(nil, defaults: defaults, pointer: "/defaults")
        }
        guard let pluginsValue = root["plugins"] else { return }
        guard case .object(let plugins) = pluginsValue else {
            throw fail("/plugins", "must be an object keyed by plugin id, got \(pluginsValue.typeName)")
        }
        for (key, value) in plugins {
            let pointer = "/plugins/" + JSONPointer.escape(key)
            guard case .object(let entry) = value else {
                throw fail(pointer, "must be an object like {\"enabled\": true}, got \(value.typeName)")
            }
            _ = try wrap { () throws(HostError) in try Self.pluginSettings(entry, defaults: defaults, pointer: pointer) }
            if let sha = entry["sha256"], !sha.isNull {
                guard let text = sha.stringValue, text.count == 64, text.allSatisfy(\.isHexDigit) else {
                    throw fail(pointer + "/sha256", "must be 64 hex digits (set it with 'skillhost trust ID'), got \(sha.serialized())")
                }
            }
            try checkPublisherReference(entry["publisher"], pointer + "/publisher")
            // An instruction skill's `permission` for its scripts (docs/instruction-skills.md); a plugin's
            // skills take theirs from the manifest.
            try checkEnum(entry["permission"], Permission.allCases.map(\.rawValue), pointer + "/permission")
            guard let skillsValue = entry["skills"] else { continue }
            guard case .object(let skills) = skillsValue else {
                throw fail(pointer + "/skills", "must be an object keyed by skill id, got \(skillsValue.typeName)")
            }
            for (skillKey, skillValue) in skills {
                try checkSkill(skillValue, pointer + "/skills/" + JSONPointer.escape(skillKey))
            }
        }
    }

    private func checkSkill(_ value: JSONValue, _ pointer: String) throws(HostError) {
        guard case .object(let entry) = value else {
            throw fail(pointer, "must be an object like {\"enabled\": false}, got \(value.typeName)")
        }
        try checkBool(entry["enabled"], pointer + "/enabled")
        if let timeout = entry["timeout"], !timeout.isNull, let fault = SkillDefaults.timeoutProblem(timeout) {
            throw fail(pointer + "/timeout", fault)
        }
        try checkEnum(entry["approval"], ApprovalPolicy.allCases.map(\.rawValue), pointer + "/approval")
        if let limit = entry["rate_limit_per_minute"], let problem = Self.rateLimitProblem(limit) {
            throw fail(pointer + "/rate_limit_per_minute", problem)
        }
    }

    /// Why `limit` is not a `rate_limit_per_minute` (nil when it is one: a whole number 0…1,000,000, or null;
    /// 0 and null mean no limit). The one rule, for plugins' skills and MCP servers' tools.
    static func rateLimitProblem(_ limit: JSONValue) -> String? {
        if limit.isNull { return nil }
        guard let number = limit.intValue, number >= 0, number <= 1_000_000 else {
            return "must be a whole number ≥ 0 (0 or null = no limit), got \(limit.serialized())"
        }
        return nil
    }

    /// A plugin entry laid over `defaults` (either may be nil).
    static func pluginSettings(_ entry: JSONObject?, defaults: JSONObject?, pointer: String) throws(HostError) -> PluginSettings {
        var settings = PluginSettings()
        for (object, where_) in [(defaults, "/defaults"), (entry, pointer)] {
            guard let object else { continue }
            if let value = object["enabled"], where_ != "/defaults" {
                guard let flag = value.boolValue else {
                    throw HostError(.registry, "registry \(where_)/enabled must be true or false, got \(value.serialized())")
                }
                settings.enabled = flag
            }
            if let value = object["isolation"] {
                guard let mode = value.stringValue.flatMap(IsolationMode.init(rawValue:)) else {
                    throw HostError(.registry, "registry \(where_)/isolation must be \"process\" or \"inprocess\", got \(value.serialized())")
                }
                settings.isolation = mode
            }
            if let value = object["max_workers"] {
                guard let count = value.intValue, count >= 1, count <= 64 else {
                    throw HostError(.registry, "registry \(where_)/max_workers must be a whole number from 1 to 64, got \(value.serialized())")
                }
                settings.maxWorkers = Int(count)
            }
            settings.limits = try settings.limits.overlaid(with: object["limits"], at: where_ + "/limits")
            if let value = object["config"], where_ != "/defaults" {
                guard case .object = value else {
                    throw HostError(.registry, "registry \(where_)/config must be a JSON object, got \(value.typeName)")
                }
                settings.configuration = value
            }
            if where_ != "/defaults" { settings.sha256 = object["sha256"]?.stringValue?.lowercased() }
            try SandboxSettings.overlay(object, at: where_, isDefaults: where_ == "/defaults", on: &settings)
        }
        return settings
    }

    /// A skill entry's settings (already checked).
    static func skillSettings(_ entry: JSONObject) -> SkillSettings {
        let rate = entry["rate_limit_per_minute"]?.intValue.map { Int($0) }
        return SkillSettings(
            enabled: entry["enabled"]?.boolValue, timeout: entry["timeout"]?.doubleValue,
            approval: entry["approval"]?.stringValue.flatMap(ApprovalPolicy.init(rawValue:)),
            rateLimitPerMinute: rate == 0 ? nil : rate)
    }

    private func checkEnum(_ value: JSONValue?, _ allowed: [String], _ pointer: String) throws(HostError) {
        guard let value else { return }
        guard let text = value.stringValue, allowed.contains(text) else {
            throw fail(pointer, "must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \(value.serialized())")
        }
    }

    private func checkBool(_ value: JSONValue?, _ pointer: String) throws(HostError) {
        guard let value else { return }
        guard value.boolValue != nil else { throw fail(pointer, "must be true or false, got \(value.serialized())") }
    }

    private func object(_ value: JSONValue?, _ pointer: String) throws(HostError) -> JSONObject? {
        guard let value else { return nil }
        guard case .object(let object) = value else { throw fail(pointer, "must be an object, got \(value.typeName)") }
        return object
    }

    /// Prefixes errors from shared checks with the file name.
    private func wrap<T>(_ body: () throws(HostError) -> T) throws(HostError) -> T {
        do { return try body() } catch {
            var error = error
            error.message = "\(registry.file): " + error.message.replacing("registry ", with: "", maxReplacements: 1) + "; fix the file by hand"
            throw error
        }
    }

    func fail(_ pointer: String, _ message: String) -> HostError {
        HostError(.registry, "\(registry.file): \(pointer) \(message); fix the file by hand")
    }
}
