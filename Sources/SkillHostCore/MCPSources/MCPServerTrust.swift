import SkillJSON

/// Pinning a stdio MCP server's code by SHA-256 (`skillhost trust NAME`, docs/mcp-sources.md "Trust"), as
/// plugins are pinned: the command file (for a Python entry point, its script) in `sha256`, and the `#!`
/// interpreter it names in `interpreter_sha256`. Before every start the files are hashed again: a changed
/// file is refused with both digests; with the registry's `trust: required`, an unpinned server is refused.
public enum MCPServerTrust {
    /// The files a stdio entry pins: the command, and its interpreter when it is a script.
    public static func files(of entry: MCPServerEntry) -> (command: String, interpreter: String?)? {
        guard case .stdio(let command, _) = entry.transport else { return nil }
        let interpreter = MCPServerInstallation.shebangInterpreter(of: command).flatMap(Posix.resolvedPath)
        return (command, interpreter)
    }

    /// Refuses a start whose files changed since they were pinned, or that is not pinned under `required`.
    /// - Throws: ``HostError`` (`denied`) naming the file, both digests and the command to trust it again.
    public static func check(_ entry: MCPServerEntry, policy: TrustPolicy) throws(HostError) {
        guard let (command, interpreter) = files(of: entry) else { return }
        guard let pinned = entry.sha256 else {
            if policy == .required {
                throw HostError(.denied,
                    "MCP server \(entry.name) is not trusted and the registry's trust policy is \"required\"; review \(command), then run 'skillhost trust \(entry.name)'",
                    pluginID: entry.name)
            }
            return
        }
        for (file, expected) in [(command, pinned), (interpreter, entry.interpreterSHA256)] {
            guard let file, let expected else { continue }
            let now = try FileDigest.sha256(ofFile: file)
            guard now == expected else {
                throw HostError(.denied,
                    "MCP server \(entry.name): the file \(file) changed since it was trusted (trusted sha256 \(expected), file now has \(now)); if you expect the change, run 'skillhost trust \(entry.name)' again",
                    pluginID: entry.name)
            }
        }
    }
}

extension SkillHost {
    /// Pins (or with `pin` false, unpins) the server's files; returns the entry as written.
    /// - Throws: ``HostError``: `notFound` for no such server, `invalidPlugin` for an HTTP server (no code of
    ///   it runs here), `io` when a file cannot be read.
    public func trustMCPServer(_ name: String, pin: Bool = true) throws(HostError) -> MCPServerEntry {
        guard var entry = try mcpServers().first(where: { $0.name == Identifier.normalize(name) }) else {
            throw HostError(.notFound, "no MCP server named \(Identifier.normalize(name)); run 'skillhost list'")
        }
        guard let (command, interpreter) = MCPServerTrust.files(of: entry) else {
            throw HostError(.invalidPlugin, "MCP server \(entry.name) is reached over HTTP: none of its code runs here, so there is no file to pin", pluginID: entry.name)
        }
        entry.sha256 = pin ? try FileDigest.sha256(ofFile: command) : nil
        entry.interpreterSHA256 = pin ? try interpreter.map { (file: String) throws(HostError) in try FileDigest.sha256(ofFile: file) } : nil
        let written = entry
        try registryStore.update { registry in
            registry.setMCPServerValue(written.sha256.map(JSONValue.string), forKey: "sha256", server: written.name)
            registry.setMCPServerValue(written.interpreterSHA256.map(JSONValue.string), forKey: "interpreter_sha256", server: written.name)
        }
        return entry
    }
}
