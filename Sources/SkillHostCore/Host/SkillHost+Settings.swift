import SkillJSON

extension SkillHost {
    /// A registry setting `skillhost set` changes, with the values it takes.
    public enum SettingKey: String, Sendable, CaseIterable {
        /// `ask` | `allow` | `deny`: a plugin skill's approval, or an instruction skill's scripts'.
        case approval
        /// `read` | `write` | `dangerous`: what an instruction skill's scripts may do (a plugin skill's comes
        /// from its manifest).
        case permission
        /// Seconds: a plugin skill's timeout.
        case timeout
        /// Calls per minute (0: no limit): a plugin skill's rate limit.
        case rateLimitPerMinute = "rate_limit_per_minute"
        /// `allow` | `refuse`: whether an MCP server's Skills-extension skills without digests
        /// (`resources: "dynamic"`) may be used (`mcp_servers.<name>.dynamic_skills`).
        case dynamicSkills = "dynamic_skills"

        /// The values it takes, for messages.
        public var values: String {
            switch self {
            case .approval: ApprovalPolicy.allCases.map(\.rawValue).joined(separator: ", ")
            case .permission: Permission.spelledOut
            case .timeout: "seconds, e.g. 30"
            case .rateLimitPerMinute: "a whole number, 0 for no limit"
            case .dynamicSkills: "allow, refuse"
            }
        }
    }

    /// What `set` changed: whose setting, where in the registry, and the value before and after (nil: not set).
    public struct SettingChange: Sendable, Equatable {
        public var id: String
        public var key: String
        public var path: String
        public var value: JSONValue?
        public var previous: JSONValue?
    }

    /// Sets (or with a nil `value` removes, so the default applies again) one registry setting of a plugin's
    /// skill (`approval`, `timeout`, `rate_limit_per_minute`), an MCP server's tool (those and `permission`,
    /// at `mcp_servers.<name>.tools.<id>`), or an instruction skill's scripts (`permission`, `approval`:
    /// ``ScriptPolicy``), written atomically under the registry lock and checked as a hand-edited registry is.
    /// - Throws: ``HostError``: `notFound` for an unknown id, `invalidArguments` for a key the id does not
    ///   take or a value the key does not take (each naming the fix), `registry` for a malformed registry.
    @discardableResult
    public func setSetting(_ id: String, key word: String, value text: String?) throws(HostError) -> SettingChange {
        let id = Identifier.normalize(id)
        guard let key = SettingKey(rawValue: word == "dynamic-skills" ? "dynamic_skills" : word) else {
            throw HostError(.invalidArguments, "\"\(word)\" is not a setting; use one of \(SettingKey.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let value = try text.map { text throws(HostError) in try Self.settingValue(text, for: key) }
        if key == .dynamicSkills {
            guard let server = try mcpServers().first(where: { $0.name == id }) else {
                throw HostError(.notFound, "dynamic_skills is set per MCP server, and there is no MCP server \"\(id)\"; run 'skillhost list' to see them")
            }
            var change = SettingChange(id: server.name, key: key.rawValue, path: "mcp_servers.\(server.name).dynamic_skills", value: value, previous: nil)
            try registryStore.update { registry in
                change.previous = registry.mcpServer(server.name)?.dynamicSkills == true ? "allow" : nil
                registry.setMCPServerValue(value, forKey: key.rawValue, server: server.name)
                _ = try Registry(document: registry.json, file: registry.file)
            }
            return change
        }
        let catalog = try catalog()
        // Where the setting lives: a plugin skill's entry, or an instruction skill's (ScriptPolicy).
        let write: (inout Registry, JSONValue?) -> Void
        let read: (Registry) -> JSONValue?
        let path: String
        if let (skill, plugin) = catalog.skill(id) {
            guard key != .permission else {
                throw HostError(.invalidArguments, "the permission of \(skill.id) (\(skill.permission.rawValue)) is its manifest's and cannot be changed; set its approval instead: 'skillhost set \(skill.id) approval allow'", skillID: skill.id)
            }
            path = Registry.settingPath(pluginID: plugin.id, skillID: skill.id, key: key.rawValue)
            write = { $0.setSkillValue($1, forKey: key.rawValue, skill: skill.id, plugin: plugin.id) }
            read = { $0.skillEntry(skill.id, plugin: plugin.id)?[key.rawValue] }
        } else if let record = catalog.instruction(id) {
            switch key {
            case .permission:
                path = ScriptPolicy.settingPath(skill: record.id, key: key.rawValue)
                write = { $0.setPluginValue($1, forKey: key.rawValue, plugin: record.id) }
                read = { $0.pluginEntry(record.id)?[key.rawValue] }
            case .approval:
                path = ScriptPolicy.settingPath(skill: record.id, key: key.rawValue)
                write = { $0.setSkillValue($1, forKey: key.rawValue, skill: ScriptPolicy.toolID, plugin: record.id) }
                read = { $0.skillEntry(ScriptPolicy.toolID, plugin: record.id)?[key.rawValue] }
            default:
                throw HostError(.invalidArguments, "an instruction skill's scripts take permission or approval, not \(key.rawValue); e.g. 'skillhost set \(record.id) permission read'")
            }
        } else if let server = try mcpServers().first(where: { Identifier.skillName(id, inPlugin: $0.name).map(Identifier.isValidSegment) == true }) {
            // An MCP server's tool (`NAME.tool`): every key but dynamic_skills, permission included (it
            // overrides what the server's annotations imply). The tool itself is looked up by the caller,
            // which can reach the server (the CLI lists its tools first).
            path = Registry.mcpToolSettingPath(server: server.name, skillID: id, key: key.rawValue)
            write = { $0.setMCPToolValue($1, forKey: key.rawValue, tool: id, server: server.name) }
            read = { $0.mcpToolEntry(id, server: server.name)?[key.rawValue] }
        } else if let plugin = catalog.plugin(id) {
            let skills = plugin.skills.map(\.id).joined(separator: ", ")
            throw HostError(.invalidArguments, "\(key.rawValue) is set per skill, not for the plugin \(plugin.id); name one of its skills: \(skills.isEmpty ? "(none)" : skills)", pluginID: plugin.id)
        } else {
            throw HostError(.notFound, "no skill or instruction skill \"\(id)\"; \(catalog.didYouMean(id, among: [.skill, .instruction]))run 'skillhost list' to see the ids")
        }
        var change = SettingChange(id: id, key: key.rawValue, path: path, value: value, previous: nil)
        try registryStore.update { registry in
            change.previous = read(registry)
            write(&registry, value)
            // Checked as a hand-edited registry is, so nothing `set` writes fails the next read.
            _ = try Registry(document: registry.json, file: registry.file)
        }
        return change
    }

    /// `text` as the JSON value `key` stores.
    static func settingValue(_ text: String, for key: SettingKey) throws(HostError) -> JSONValue {
        let refusal = HostError(.invalidArguments, "\"\(text)\" is not a value of \(key.rawValue); use \(key.values)")
        switch key {
        case .approval:
            guard ApprovalPolicy(rawValue: text) != nil else { throw refusal }
            return .string(text)
        case .permission:
            guard Permission(rawValue: text) != nil else { throw refusal }
            return .string(text)
        case .timeout:
            guard let seconds = Double(text), seconds.isFinite else { throw refusal }
            if let problem = SkillDefaults.timeoutProblem(.double(seconds)) {
                throw HostError(.invalidArguments, "timeout \(text) \(problem)")
            }
            return .double(seconds)
        case .dynamicSkills:
            guard text == "allow" || text == "refuse" else { throw refusal }
            return .string(text)
        case .rateLimitPerMinute:
            guard let count = Int64(text), count >= 0, count <= 1_000_000 else { throw refusal }
            return .int(count)
        }
    }
}
