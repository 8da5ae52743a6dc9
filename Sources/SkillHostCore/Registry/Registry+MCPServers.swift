import SkillJSON

/// The registry's MCP servers (`mcp_servers.<name>`, docs/mcp-sources.md): read checked, written through
/// ``RegistryStore/update(_:)`` like every other decision.
extension Registry {
    /// Every MCP server entry, by name, in file order; entries that do not check are left out (a read
    /// through ``RegistryStore`` has already refused them).
    public var mcpServers: [MCPServerEntry] {
        guard let servers = document["mcp_servers"]?.objectValue else { return [] }
        return servers.compactMap { key, value in
            try? MCPServerEntry(name: Identifier.normalize(key), json: value, pointer: "/mcp_servers/" + JSONPointer.escape(key))
        }
    }

    /// The entry of the server `name` (normalized).
    public func mcpServer(_ name: String) -> MCPServerEntry? {
        let id = Identifier.normalize(name)
        return mcpServers.first { $0.name == id }
    }

    /// Adds or replaces the server's connection and sandbox members, keeping its tools' entries, trust pins
    /// and enabled state.
    public mutating func setMCPServer(_ entry: MCPServerEntry) {
        var servers = document["mcp_servers"]?.objectValue ?? JSONObject()
        let key = mcpServerKey(entry.name) ?? entry.name
        var object = entry.json
        if let old = servers[key]?.objectValue {
            for member in ["enabled", "tools", "sha256", "interpreter_sha256", "dynamic_skills"] where old[member] != nil {
                object[member] = old[member]
            }
        }
        servers[key] = .object(object)
        document["mcp_servers"] = .object(servers)
    }

    /// Removes the server's entry; false when there was none.
    @discardableResult
    public mutating func removeMCPServer(_ name: String) -> Bool {
        guard var servers = document["mcp_servers"]?.objectValue, let key = mcpServerKey(name) else { return false }
        servers[key] = nil
        document["mcp_servers"] = servers.isEmpty ? nil : .object(servers)
        return true
    }

    /// Sets (or with nil removes) one member of the server's entry.
    public mutating func setMCPServerValue(_ value: JSONValue?, forKey member: String, server name: String) {
        guard var servers = document["mcp_servers"]?.objectValue, let key = mcpServerKey(name),
            var entry = servers[key]?.objectValue
        else { return }
        entry[member] = value
        servers[key] = .object(entry)
        document["mcp_servers"] = .object(servers)
    }

    /// A tool's entry (`mcp_servers.<name>.tools.<skill id>`), nil when it has none.
    public func mcpToolEntry(_ skillID: String, server name: String) -> JSONObject? {
        guard let key = mcpServerKey(name), let tools = document["mcp_servers"]?[key]?["tools"]?.objectValue else { return nil }
        let id = Identifier.normalize(skillID)
        return (tools[id] ?? tools.first { Identifier.normalize($0.key) == id }?.value)?.objectValue
    }

    /// Sets (or with nil removes) one member of a tool's entry (`mcp_servers.<name>.tools.<skill id>`).
    public mutating func setMCPToolValue(_ value: JSONValue?, forKey member: String, tool skillID: String, server name: String) {
        guard let servers = document["mcp_servers"]?.objectValue, let key = mcpServerKey(name),
            let entry = servers[key]?.objectValue
        else { return }
        let id = Identifier.normalize(skillID)
        var tools = entry["tools"]?.objectValue ?? JSONObject()
        let toolKey = tools.keys.first { Identifier.normalize($0) == id } ?? id
        var tool = tools[toolKey]?.objectValue ?? JSONObject()
        tool[member] = value
        tools[toolKey] = tool.isEmpty ? nil : .object(tool)
        setMCPServerValue(tools.isEmpty ? nil : .object(tools), forKey: "tools", server: name)
    }

    /// Where a tool's setting lives, as remedies name it: `mcp_servers.NAME.tools.SKILL.KEY` (`KEY` nil: the
    /// tool's entry itself).
    public static func mcpToolSettingPath(server: String, skillID: String, key: String? = nil) -> String {
        "mcp_servers.\(server).tools.\(skillID)" + (key.map { "." + $0 } ?? "")
    }

    private func mcpServerKey(_ name: String) -> String? {
        let id = Identifier.normalize(name)
        return document["mcp_servers"]?.objectValue?.keys.first { Identifier.normalize($0) == id }
    }
}

extension RegistryCheck {
    /// Checks `mcp_servers`: an object of entries ``MCPServerEntry`` reads, no two names equal once normalized.
    func checkMCPServers(_ value: JSONValue?) throws(HostError) {
        guard let value else { return }
        guard case .object(let servers) = value else {
            throw fail("/mcp_servers", "must be an object keyed by server name, got \(value.typeName)")
        }
        var seen: [String: String] = [:]
        for (key, entry) in servers {
            let pointer = "/mcp_servers/" + JSONPointer.escape(key)
            let name = Identifier.normalize(key)
            if let other = seen[name] { throw fail(pointer, "names the same server as /mcp_servers/\(JSONPointer.escape(other)); keep one") }
            seen[name] = key
            do {
                _ = try MCPServerEntry(name: name, json: entry, pointer: pointer)
            } catch {
                throw HostError(.registry, "\(registry.file): " + error.message.replacing("registry ", with: "", maxReplacements: 1) + "; fix the file by hand or run 'skillhost add-mcp' again")
            }
        }
    }
}
