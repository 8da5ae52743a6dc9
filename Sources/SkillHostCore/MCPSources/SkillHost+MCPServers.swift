import Synchronization
import SkillJSON

/// The user's commands about MCP servers (`add-mcp`, `remove`, `enable`, `disable`, `trust`), each one locked,
/// atomic registry update (docs/mcp-sources.md).
/// The registry's MCP servers as last read, with the registry file's status then: a call checks them with
/// one `stat` instead of reading and parsing the registry (the gateway's per-call cost).
final class MCPServerList: Sendable {
    private let last = Mutex<(status: Posix.FileStatus?, servers: [MCPServerEntry])?>(nil)

    func servers(_ store: RegistryStore) throws(HostError) -> [MCPServerEntry] {
        let status = try? Posix.status(ofPath: store.path)
        if let status, let known = last.withLock({ $0 }), known.status == status { return known.servers }
        let servers = try store.read().mcpServers
        last.withLock { $0 = (status, servers) }
        return servers
    }
}

extension SkillHost {
    /// The registry's MCP servers (read again only when the registry file changed).
    public func mcpServers() throws(HostError) -> [MCPServerEntry] {
        try mcpServerList.servers(registryStore)
    }

    /// Why the administrator's policy refuses the MCP server `name`, if it does.
    public func mcpPolicyBlock(_ name: String) -> String? {
        AdminPolicy.load(files: paths.policyFiles).blockingReason(mcpSource: name)
    }

    /// Adds the server (or, with `replacing`, replaces its connection and sandbox members; its tools'
    /// settings, trust pins and state stay).
    /// - Throws: ``HostError``: `registry` when the name is taken (by a plugin, an instruction skill or, without
    ///   `replacing`, another server) or the entry does not check; `denied` when the administrator's policy
    ///   blocks it.
    public func addMCPServer(_ entry: MCPServerEntry, replacing: Bool = false) throws(HostError) {
        // The one check of an entry: what the registry will read back.
        _ = try MCPServerEntry(name: entry.name, json: .object(entry.json), pointer: "/mcp_servers/\(JSONPointer.escape(entry.name))")
        if let block = mcpPolicyBlock(entry.name) { throw HostError(.denied, block, pluginID: entry.name) }
        let catalog = try catalog()
        if catalog.plugin(entry.name) != nil {
            throw HostError(.registry, "the name \(entry.name) is the id of an installed plugin, so its tools' ids would clash with its skills; choose another name")
        }
        if catalog.instruction(entry.name) != nil {
            throw HostError(.registry, "the name \(entry.name) is an instruction skill's; choose another name")
        }
        try registryStore.update { registry in
            if !replacing, registry.mcpServer(entry.name) != nil {
                throw HostError(.registry, "an MCP server named \(entry.name) is already in \(registry.file); pass --replace to change it, or 'skillhost remove \(entry.name)' first")
            }
            registry.setMCPServer(entry)
        }
    }

    /// Removes the server's entry (its data folder is kept).
    /// - Throws: ``HostError`` `notFound` when there is none.
    public func removeMCPServer(_ name: String) throws(HostError) -> MCPServerEntry {
        var removed: MCPServerEntry?
        try registryStore.update { registry in
            removed = registry.mcpServer(name)
            registry.removeMCPServer(name)
        }
        guard let removed else {
            throw HostError(.notFound, "no MCP server named \(Identifier.normalize(name)); run 'skillhost list' to see them")
        }
        // Its skills' cached files go with it (the extension asks so).
        MCPSkillCache(paths: paths).remove(server: removed.name)
        return removed
    }

    /// Enables or disables MCP servers (`NAME`) and their tools (`NAME.tool`) among `ids`; the ids that name
    /// neither are returned untouched for the plugin path. A tool's id is not checked against the server's
    /// listing (that would start it): it must be `NAME.` and one segment.
    public func setMCPEnabled(_ ids: [String], _ enabled: Bool) throws(HostError) -> (changes: [Change], rest: [String]) {
        let servers = try mcpServers()
        var changes: [Change] = []
        var rest: [String] = []
        for raw in ids {
            let id = Identifier.normalize(raw)
            if let server = servers.first(where: { $0.name == id }) {
                changes.append(Change(kind: "MCP server", id: server.name, note: enabled ? mcpPolicyBlock(server.name) : nil))
            } else if let server = servers.first(where: { Identifier.skillName(id, inPlugin: $0.name).map(Identifier.isValidSegment) == true }) {
                let note = enabled && !server.enabled && !ids.contains(where: { Identifier.normalize($0) == server.name })
                    ? "its MCP server \(server.name) is disabled; run 'skillhost enable \(server.name)' too" : nil
                changes.append(Change(kind: "MCP tool", id: id, note: note))
            } else {
                rest.append(raw)
            }
        }
        guard !changes.isEmpty else { return ([], rest) }
        try registryStore.update { registry in
            for change in changes {
                if change.kind == "MCP server" {
                    registry.setMCPServerValue(.bool(enabled), forKey: "enabled", server: change.id)
                } else if let server = servers.first(where: { Identifier.skillName(change.id, inPlugin: $0.name) != nil }) {
                    registry.setMCPToolValue(enabled ? nil : .bool(false), forKey: "enabled", tool: change.id, server: server.name)
                }
            }
        }
        // Enabling a server gives it a fresh start: a broken one's crash history is forgotten.
        if enabled {
            let health = PluginHealthStore(cacheDirectory: paths.cache)
            for change in changes where change.kind == "MCP server" { try health.clear(pluginID: MCPServerSession.healthKey(change.id)) }
        }
        return (changes, rest)
    }
}

extension SkillHost {
    /// `skillhost grant NAME CAPABILITY [--revoke]` for an MCP server: widens (or narrows) what its entry
    /// declares — `network:any`, `network:tcp:PORT`, `home:PATH:read|read-write` (a path under the home
    /// folder), `env:NAME` (the host's variable passed as `${NAME}`), `processes` (a stdio server always may
    /// start processes: its own exec is one). Returns the entry as written.
    /// - Throws: ``HostError``: `notFound` for no such server, `invalidArguments` for a capability an MCP
    ///   server cannot take (`config:…`).
    public func grantMCPServer(_ name: String, capability word: String, revoke: Bool) throws(HostError) -> MCPServerEntry {
        guard var entry = try mcpServers().first(where: { $0.name == Identifier.normalize(name) }) else {
            throw HostError(.notFound, "no MCP server named \(Identifier.normalize(name)); run 'skillhost list'")
        }
        guard let capability = Capability(word) else {
            throw HostError(.invalidArguments, "'\(word)' is not a capability; use one of \(Capability.syntax)")
        }
        switch capability {
        case .processes:
            entry.processes = !revoke
        case .networkAny:
            entry.network = revoke ? .none : .any
        case .tcpConnect(let port):
            var ports: [Int] = if case .tcpConnect(let known) = entry.network { known } else { [] }
            ports.removeAll { $0 == port }
            if !revoke { ports.append(port) }
            if case .any = entry.network, !revoke { break }
            entry.network = ports.isEmpty ? .none : .tcpConnect(ports.sorted())
        case .environment(let variable):
            entry.environment[variable] = revoke ? nil : "${\(variable)}"
        case .path(let grant):
            guard grant.root == .home, let relative = grant.path, let home = HostPaths.homeDirectory else {
                throw HostError(.invalidArguments, "an MCP server has no configuration keys; grant a path with home:PATH:read|read-write, or add-mcp --replace with --read/--read-write PATH")
            }
            let path = home + "/" + relative
            entry.files.removeAll { $0.path == path }
            if !revoke { entry.files.append(SandboxPolicy.Rule(path: path, access: grant.access)) }
        }
        let written = entry
        try registryStore.update { registry in registry.setMCPServer(written) }
        return entry
    }
}
