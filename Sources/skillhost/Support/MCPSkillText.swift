import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON

/// What the CLI shows of MCP servers' skills (the Skills extension; docs/mcp-sources.md "Their skills too"):
/// a section of `list` after the MCP servers', `inspect SERVER:PATH`, and the collision warnings. Only
/// `skills/list` is asked: no skill file is fetched to list or inspect a skill.
enum MCPSkillText {
    /// The skills of every enabled server, the problems met, and the collisions with local skills.
    static func gather(_ catalog: MCPSkillCatalog) async -> (skills: [MCPSkillEntry], notes: [String]) {
        let (skills, problems) = await catalog.all()
        let local = ((try? catalog.sources.host.catalog().instructions) ?? []).map { ($0.id, $0.folder) }
        let collisions = MCPSkillCatalog.collisions(skills, localNames: Dictionary(local, uniquingKeysWith: { a, _ in a }))
        return (skills.sorted { $0.qualifiedName < $1.qualifiedName }, problems + collisions)
    }

    static func status(_ skill: MCPSkillEntry) -> String { skill.refusal == nil ? (skill.isDynamic ? "dynamic" : "ok") : "refused" }

    /// The section of `list`.
    static func table(_ skills: [MCPSkillEntry], notes: [String]) -> String {
        guard !skills.isEmpty || !notes.isEmpty else { return "" }
        let width = max(12, skills.map { $0.qualifiedName.count }.max() ?? 0) + 2
        var lines = skills.isEmpty ? [] : [CatalogTable.pad("MCP SKILL", width) + CatalogTable.pad("STATUS", 10) + CatalogTable.pad("FILES", 7) + "DESCRIPTION (from the server)"]
        for skill in skills {
            lines.append(CatalogTable.pad(skill.qualifiedName, width) + CatalogTable.pad(status(skill), 10)
                + CatalogTable.pad(skill.files.map { "\($0.count)" } ?? "-", 7)
                + TerminalText.sanitized(String(skill.description.prefix { $0 != "\n" }.prefix(80))))
            if let refusal = skill.refusal { lines.append("  ! " + refusal) }
            if let outer = skill.nestedIn { lines.append("  nested in \(outer): activating it asks first") }
        }
        lines += notes.map { "note: " + $0 }
        return lines.joined(separator: "\n")
    }

    static func json(_ skill: MCPSkillEntry) -> JSONValue {
        [
            "name": .string(skill.qualifiedName), "server": .string(skill.server), "uri": .string(skill.uri),
            "skill_name": .string(skill.name), "description": .string(skill.description), "status": .string(status(skill)),
            "error": skill.refusal.map(JSONValue.string) ?? .null, "frontmatter": skill.frontmatter,
            "nested_in": skill.nestedIn.map(JSONValue.string) ?? .null,
            "files": skill.files.map { files in
                .array(files.map { ["path": .string($0.path), "uri": .string($0.uri), "digest": .string("sha256:" + $0.sha256), "size": .int($0.size)] })
            } ?? "dynamic",
        ]
    }

    /// `list`'s section, added to its text or JSON.
    static func addListing(_ listing: inout String, json: Bool, backend: MCPSourceBackend) async {
        let (skills, notes) = await gather(MCPSkillCatalog(sources: backend))
        guard !skills.isEmpty || !notes.isEmpty else { return }
        if json, case .object(var root)? = try? JSONValue(parsing: listing) {
            root["mcp_skills"] = .array(skills.map(Self.json))
            root["notes"] = .array((root["notes"]?.arrayValue ?? []) + notes.map(JSONValue.string))
            listing = JSONValue.object(root).serialized(options: .prettyPrinted) + "\n"
        } else if !json {
            listing += "\n" + table(skills, notes: notes) + "\n"
        }
    }

    /// `inspect SERVER:PATH`: the entry as listed (nothing fetched); nil when `id` names no server's skill.
    static func inspect(_ id: String, parsed: ParsedArguments, host: SkillHost) async throws -> (json: JSONValue, text: String)? {
        guard id.contains(":") else { return nil }
        let backend = MCPSourceText.backend(parsed, host: host, base: EmptyBackend())
        defer { backend.shutdown() }
        let catalog = MCPSkillCatalog(sources: backend)
        let (skills, notes) = await gather(catalog)
        guard let skill = skills.first(where: { $0.qualifiedName == id }) else {
            let server = String(id.prefix { $0 != ":" })
            guard try host.mcpServers().contains(where: { $0.name == server }) else { return nil }
            let names = skills.filter { $0.server == server }.map(\.qualifiedName)
            throw HostError(.notFound, "MCP server \(server) serves no skill \(id); \(notes.first.map { $0 + "; " } ?? "")its skills: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))")
        }
        var lines = [
            "MCP skill \(skill.qualifiedName) (served by MCP server \(skill.server); not a local skill)",
            "  uri:         \(skill.uri)", "  name:        \(skill.name)",
            "  description: \(TerminalText.sanitized(skill.description))",
            "  status:      \(status(skill))",
        ]
        if let refusal = skill.refusal { lines.append("  refused:     " + refusal) }
        if let outer = skill.nestedIn { lines.append("  nested in:   \(outer) (activating it asks first: fresh consent)") }
        lines.append("  frontmatter: " + TerminalText.sanitized(skill.frontmatter.serialized()))
        lines.append("  allowed-tools: ignored (a remote server may not widen what the host allows)")
        lines.append("  cache:       " + catalog.cache.folder(of: skill) + " (verified files only, fetched when read)")
        if let files = skill.files {
            lines.append("  files:       \(files.count), \(files.reduce(0) { $0 + $1.size }) bytes (each verified against its digest and size when read)")
            lines += files.map { "    \($0.path)  \($0.size) bytes  sha256:\($0.sha256.prefix(16))…" }
        } else {
            lines.append("  files:       dynamic (no digests: nothing read can be verified)")
        }
        lines += notes.filter { $0.contains(skill.qualifiedName) }.map { "  note:        " + $0 }
        return (json(skill), lines.joined(separator: "\n"))
    }

    /// The instruction library of `chat`: the local skills plus the MCP servers' (nil when no server is
    /// registered); collisions and problems are warned about once, at start.
    static func chatLibrary(_ sources: MCPSourceBackend, warn: (String) -> Void) async -> (any InstructionLibrary)? {
        guard !((try? sources.host.mcpServers()) ?? []).isEmpty else { return nil }
        let catalog = MCPSkillCatalog(sources: sources)
        let (skills, notes) = await gather(catalog)
        for note in notes { warn(note) }
        for skill in skills { if let refusal = skill.refusal { warn(refusal) } }
        return MCPInstructionLibrary(local: HostInstructionLibrary(host: sources.host), remote: catalog)
    }
}
