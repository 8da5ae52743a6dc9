import SkillHostCore
import SkillJSON

/// Where the agent finds instruction skills (Agent Skills `SKILL.md` folders): the enabled ones, one read
/// completely, and one bundled file. ``HostInstructionLibrary`` reads them from a `SkillHost`; tests can
/// supply their own.
public protocol InstructionLibrary: Sendable {
    /// The enabled, valid instruction skills: name and description (what the model sees up front).
    func enabledSkills() throws(HostError) -> [(name: String, description: String)]
    /// One enabled skill, read completely.
    func skill(named name: String) throws(HostError) -> InstructionSkill
    /// Up to `limit` bytes from `offset` of one bundled file, and the file's size.
    func read(skill: String, path: String, offset: Int, limit: Int) throws(HostError) -> (bytes: [UInt8], size: Int64)
    /// The `allowed-tools` of one enabled skill (none when it has none or is not enabled).
    func allowedTools(ofSkill name: String) -> AllowedTools
    /// Whether the administrator's policy always asks before the tool `toolID` runs (then nothing spares
    /// it the question).
    func policyAlwaysAsks(_ toolID: String) -> Bool
    /// Why activating the skill `name` needs the user's approval (a nested MCP skill: fresh consent), or nil.
    func activationConsent(_ name: String) -> String?
    /// ``enabledSkills()`` from async code (MCP servers' skills are listed without blocking a thread).
    func loadEnabledSkills() async throws(HostError) -> [(name: String, description: String)]
    /// ``skill(named:)`` from async code (an MCP skill is fetched without blocking a thread).
    func loadSkill(named name: String) async throws(HostError) -> InstructionSkill
    /// ``read(skill:path:offset:limit:)`` from async code.
    func loadFile(skill: String, path: String, offset: Int, limit: Int) async throws(HostError) -> (bytes: [UInt8], size: Int64)
}

extension InstructionLibrary {
    public func allowedTools(ofSkill name: String) -> AllowedTools {
        AllowedTools(frontmatter: try? skill(named: name).frontmatter)
    }

    public func policyAlwaysAsks(_ toolID: String) -> Bool { false }

    public func activationConsent(_ name: String) -> String? { nil }

    public func loadEnabledSkills() async throws(HostError) -> [(name: String, description: String)] { try enabledSkills() }

    public func loadSkill(named name: String) async throws(HostError) -> InstructionSkill { try skill(named: name) }

    public func loadFile(skill: String, path: String, offset: Int, limit: Int) async throws(HostError) -> (bytes: [UInt8], size: Int64) {
        try read(skill: skill, path: path, offset: offset, limit: limit)
    }
}

/// The ``InstructionLibrary`` of a host's skills folder.
public struct HostInstructionLibrary: InstructionLibrary {
    /// The host.
    public let host: SkillHost

    /// A library over `host`.
    public init(host: SkillHost) { self.host = host }

    public func enabledSkills() throws(HostError) -> [(name: String, description: String)] {
        try host.catalog().enabledInstructions.map { ($0.id, $0.description) }
    }

    public func skill(named name: String) throws(HostError) -> InstructionSkill {
        try checkEnabled(name)
        return try host.instructionSkill(name)
    }

    public func read(skill: String, path: String, offset: Int, limit: Int) throws(HostError) -> (bytes: [UInt8], size: Int64) {
        try checkEnabled(skill)
        return try host.readInstructionFile(skill: skill, path: path, offset: offset, limit: limit)
    }

    public func allowedTools(ofSkill name: String) -> AllowedTools {
        // The frontmatter as the catalog read it (cached per SKILL.md version), only of a usable skill.
        guard let record = try? host.currentCatalog().instruction(name), record.isUsable else { return AllowedTools(frontmatter: nil) }
        return AllowedTools(frontmatter: record.frontmatter.map(JSONValue.object))
    }

    public func policyAlwaysAsks(_ toolID: String) -> Bool {
        guard let (_, plugin) = try? host.currentCatalog().skill(toolID) else { return false }
        return plugin.policyAskedSkills.contains(toolID)
    }

    private func checkEnabled(_ name: String) throws(HostError) {
        let catalog = try host.catalog()
        guard let record = catalog.instruction(name) else {
            let known = catalog.enabledInstructions.map(\.id).joined(separator: ", ")
            throw HostError(.notFound, "no instruction skill \"\(name)\"; enabled ones: \(known.isEmpty ? "(none)" : known)")
        }
        switch record.status {
        case .ok:
            return
        case .disabled:
            throw HostError(.disabled, "instruction skill \(record.id) is disabled; run 'skillhost enable \(record.id)'")
        case .denied:
            // Blocked by the administrator's policy: never read, whatever name a model or a person gives.
            throw HostError(.denied, record.error ?? "instruction skill \(record.id) may not be used; see 'skillhost list'")
        case .invalid, .broken:
            throw HostError(.invalidPlugin, record.error ?? "instruction skill \(record.id) is \(record.status.rawValue); see 'skillhost list'")
        }
    }
}
