import SkillHostCore
import SkillJSON
import Synchronization

/// The skills the registry's MCP servers serve through the Skills extension (SEP-2640; docs/mcp-sources.md
/// "Their skills too"), beside the local instruction skills: listed from `skills/list` alone, named per
/// origin (``MCPSkillEntry/qualifiedName``, `SERVER:PATH`), fetched lazily with `resources/read` and
/// verified on every read against the entry held (``MCPSkillVerifier``), kept in ``MCPSkillCache``. It uses
/// the servers ``MCPSourceBackend`` runs, so a server is started once for its tools and its skills.
public final class MCPSkillCatalog: Sendable {
    /// The backend whose sessions reach the servers.
    public let sources: MCPSourceBackend
    /// Where verified files are kept.
    public let cache: MCPSkillCache
    /// The listing held for the life of this catalog, per server (the entries reads are verified against).
    private let held = Mutex<[String: Listing]>([:])

    /// One server's skills as listed, and what kept it from listing them.
    public struct Listing: Sendable {
        /// Its skills (refused ones included, with ``MCPSkillEntry/refusal``).
        public var skills: [MCPSkillEntry] = []
        /// Why its skills could not be listed (one line), or entries that were skipped.
        public var problems: [String] = []
        /// Whether the server declares the Skills extension.
        public var declared = false
    }

    /// The skills of `sources`'s servers.
    public init(sources: MCPSourceBackend) {
        self.sources = sources
        cache = MCPSkillCache(paths: sources.host.paths)
    }

    // MARK: - Listing

    /// The skills of one enabled server (listed once, then held). Starts the server when needed.
    public func listing(of entry: MCPServerEntry) async -> Listing {
        if let known = held.withLock({ $0[entry.name] }) { return known }
        var listing = Listing()
        do {
            let session = sources.session(for: entry)
            if try await session.declaresSkills() {
                listing.declared = true
                for raw in try await session.listSkills() {
                    do throws(HostError) {
                        var skill = try MCPSkillEntry(raw, server: entry.name)
                        if skill.refusal == nil, skill.isDynamic, !entry.dynamicSkills {
                            skill.refusal = "\(skill.label) is refused: its resources are \"dynamic\" (no digests, so nothing read can be verified); allow such skills of this server with 'skillhost set \(entry.name) dynamic_skills allow'"
                        }
                        listing.skills.append(skill)
                    } catch {
                        listing.problems.append(error.message)
                    }
                }
                MCPSkillEntry.markNesting(&listing.skills)
                listing.skills = Self.disambiguated(listing.skills)
            }
        } catch {
            listing.problems.append("MCP server \(entry.name)'s skills could not be listed: \(error.message)")
            return listing // not held: tried again on the next use
        }
        let made = listing
        held.withLock { $0[entry.name] = made }
        return made
    }

    /// Every enabled server's skills (refused ones included), and the problems met.
    public func all() async -> (skills: [MCPSkillEntry], problems: [String]) {
        var skills: [MCPSkillEntry] = []
        var problems: [String] = []
        for entry in (try? sources.host.mcpServers()) ?? [] where entry.enabled && sources.host.mcpPolicyBlock(entry.name) == nil {
            let listing = await listing(of: entry)
            skills += listing.skills
            problems += listing.problems
        }
        return (skills, problems)
    }

    /// The usable skills (not refused), sorted by qualified name.
    public func usable() async -> [MCPSkillEntry] {
        await all().skills.filter { $0.refusal == nil }.sorted { $0.qualifiedName < $1.qualifiedName }
    }

    /// The skill named `qualifiedName` (`SERVER:PATH`), usable or with its refusal thrown.
    public func skill(named qualifiedName: String) async throws(HostError) -> MCPSkillEntry {
        let server = String(qualifiedName.prefix { $0 != ":" })
        guard let entry = try sources.host.mcpServers().first(where: { $0.name == server }) else {
            throw HostError(.notFound, "no MCP server \"\(server)\" for the skill \(qualifiedName); run 'skillhost list'", skillID: qualifiedName)
        }
        guard entry.enabled else {
            throw HostError(.disabled, "MCP server \(server) is disabled; run 'skillhost enable \(server)'", skillID: qualifiedName, pluginID: server)
        }
        let listing = await listing(of: entry)
        guard let skill = listing.skills.first(where: { $0.qualifiedName == qualifiedName }) else {
            let names = listing.skills.map(\.qualifiedName)
            throw HostError(.notFound,
                "MCP server \(server) serves no skill \(qualifiedName); \(listing.problems.first.map { $0 + "; " } ?? "")its skills: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))",
                skillID: qualifiedName, pluginID: server)
        }
        if let refusal = skill.refusal { throw HostError(.denied, refusal, skillID: qualifiedName, pluginID: server) }
        return skill
    }

    /// Warnings for names shared with local instruction skills (`localNames`: name → folder): both are kept,
    /// the MCP one under its qualified name; never one silently for the other.
    public static func collisions(_ skills: [MCPSkillEntry], localNames: [String: String]) -> [String] {
        skills.compactMap { skill in
            localNames[skill.name].map { folder in
                "instruction skill \"\(skill.name)\": your \(folder) and \(skill.label) share the name; both are kept — the MCP server's is \(skill.qualifiedName), yours is \(skill.name)"
            }
        }
    }

    /// Two entries of one server whose qualified names are equal (different schemes with the same path)
    /// are both refused, naming each other: neither is preferred.
    static func disambiguated(_ skills: [MCPSkillEntry]) -> [MCPSkillEntry] {
        var result = skills
        for index in result.indices {
            if let other = result.indices.first(where: { $0 != index && result[$0].qualifiedName == result[index].qualifiedName }) {
                result[index].refusal = result[index].refusal
                    ?? "\(result[index].label) is refused: \(result[other].uri) of the same server has the same name; the server's author must rename one"
            }
        }
        return result
    }

    // MARK: - Reading

    /// One file of a usable skill, verified against the entry held (size, digest; `SKILL.md`'s frontmatter).
    /// From the cache when the cached bytes still match, else fetched with `resources/read`.
    public func read(_ qualifiedName: String, path: String) async throws(HostError) -> [UInt8] {
        let skill = try await skill(named: qualifiedName)
        guard let server = try sources.host.mcpServers().first(where: { $0.name == skill.server }) else {
            throw HostError(.notFound, "no MCP server \"\(skill.server)\"", skillID: qualifiedName)
        }
        guard !skill.isDynamic else {
            // Allowed by the user for this server: no digest to check, the extension's total size is the cap.
            let bytes = try await sources.session(for: server).readResource(skill.rootURI + "/" + path, limit: MCPSkillEntry.maximumTotalSize)
            if path == "SKILL.md" { _ = try MCPSkillVerifier.document(bytes, of: skill) }
            return bytes
        }
        let file = try MCPSkillVerifier.listedFile(path, of: skill)
        if let cached = cache.cached(file, of: skill) {
            if path == "SKILL.md" { _ = try MCPSkillVerifier.document(cached, of: skill) }
            return cached
        }
        let bytes = try await sources.session(for: server).readResource(file.uri, limit: file.size + 1)
        try MCPSkillVerifier.verify(bytes, as: file, of: skill)
        if path == "SKILL.md" { _ = try MCPSkillVerifier.document(bytes, of: skill) }
        cache.store(bytes, as: file, of: skill)
        return bytes
    }

    /// The skill read for activation: its `SKILL.md` fetched and verified (nothing else is fetched), as an
    /// ``InstructionSkill`` named by its qualified name, whose folder is its cache folder.
    public func instructionSkill(_ qualifiedName: String) async throws(HostError) -> InstructionSkill {
        let skill = try await skill(named: qualifiedName)
        let bytes = try await read(qualifiedName, path: "SKILL.md")
        let document = try MCPSkillVerifier.document(bytes, of: skill)
        return InstructionSkill(
            name: skill.qualifiedName, frontmatter: .object(document.frontmatter), body: document.body, folder: cache.folder(of: skill),
            files: skill.files?.map { BundledFile(path: $0.path, sha256: $0.sha256, size: $0.size) }
                ?? [BundledFile(path: "SKILL.md", sha256: FileDigest.sha256(of: bytes), size: Int64(bytes.count))])
    }

    /// Every file of the skill fetched (or taken from the cache) and verified: the folder a script runs in.
    public func materialize(_ qualifiedName: String) async throws(HostError) -> String {
        let skill = try await skill(named: qualifiedName)
        guard let files = skill.files else {
            throw HostError(.denied, "\(skill.label): its scripts cannot run: its resources are \"dynamic\", so its files cannot be verified", skillID: qualifiedName, pluginID: skill.server)
        }
        for file in files { _ = try await read(qualifiedName, path: file.path) }
        return cache.folder(of: skill)
    }

    // MARK: - Blocking forms (for the synchronous seams: InstructionLibrary, InstructionSkillSource)

    /// ``usable()`` without waiting when every enabled server's listing is held (after ``all()``, as `chat`
    /// does at start); otherwise it blocks this thread, so call it from threads that may block.
    public func usableNow() -> [MCPSkillEntry] {
        let servers = ((try? sources.host.mcpServers()) ?? []).filter { $0.enabled && sources.host.mcpPolicyBlock($0.name) == nil }
        let known = held.withLock { held in servers.allSatisfy { held[$0.name] != nil } ? servers.flatMap { held[$0.name]!.skills } : nil }
        if let known { return known.filter { $0.refusal == nil }.sorted { $0.qualifiedName < $1.qualifiedName } }
        return (try? MCPSourceBackend.wait { () async throws(HostError) in await self.usable() }) ?? []
    }

    /// The skill `qualifiedName` from the listings held, without asking any server (nil when not held).
    public func heldSkill(named qualifiedName: String) -> MCPSkillEntry? {
        held.withLock { held in held.values.lazy.flatMap(\.skills).first { $0.qualifiedName == qualifiedName } }
    }

    /// ``instructionSkill(_:)`` from a thread that may block.
    public func instructionSkillNow(_ qualifiedName: String) throws(HostError) -> InstructionSkill {
        try MCPSourceBackend.wait { () async throws(HostError) in try await self.instructionSkill(qualifiedName) }
    }

    /// ``read(_:path:)`` from a thread that may block.
    public func readNow(_ qualifiedName: String, path: String) throws(HostError) -> [UInt8] {
        try MCPSourceBackend.wait { () async throws(HostError) in try await self.read(qualifiedName, path: path) }
    }

    /// ``skill(named:)`` from a thread that may block.
    public func skillNow(_ qualifiedName: String) throws(HostError) -> MCPSkillEntry {
        try MCPSourceBackend.wait { () async throws(HostError) in try await self.skill(named: qualifiedName) }
    }
}
