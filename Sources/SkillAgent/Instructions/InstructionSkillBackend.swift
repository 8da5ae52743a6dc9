import SkillCalls
import SkillHostCore
import SkillJSON

/// A ``SkillBackend`` that adds instruction skills to another backend: while any instruction skill is
/// enabled, the tools `activate_skill` and `read_skill_file` are offered beside the base backend's tools
/// and answered here; every other call goes to the base backend (bundled scripts run through
/// ``ScriptToolBackend``, below this one).
public struct InstructionSkillBackend: SkillBackend, InstructionPromptSource, PreApproval {
    /// The backend for every other tool.
    public let base: any SkillBackend
    /// Where the instruction skills come from.
    public let library: any InstructionLibrary
    /// Checks the built-in tools' arguments against their schemas (the host's one validator).
    private let validator = ArgumentValidator()

    /// Instruction skills from `library` on top of `base`.
    public init(base: any SkillBackend, library: any InstructionLibrary) {
        self.base = base
        self.library = library
    }

    @available(*, noasync, message: "use 'await listTools()'")
    public func tools() throws(HostError) -> [SkillTool] {
        try base.tools() + InstructionTools.tools(for: enabledSkills())
    }

    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] {
        try await base.listTools() + InstructionTools.tools(for: await loadEnabledSkills())
    }

    public func instructionPrompt() async -> String {
        InstructionTools.promptSection(for: await loadEnabledSkills())
    }

    /// The enabled instruction skills (none when they cannot be read); blocks while MCP servers are asked.
    private func enabledSkills() -> [(name: String, description: String)] { (try? library.enabledSkills()) ?? [] }
    /// ``enabledSkills()`` for async code.
    private func loadEnabledSkills() async -> [(name: String, description: String)] { (try? await library.loadEnabledSkills()) ?? [] }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard skillID == InstructionTools.activate || skillID == InstructionTools.readFile else {
            return try base.prepare(skillID: skillID, arguments: arguments)
        }
        guard let tool = InstructionTools.tools(for: enabledSkills()).first(where: { $0.id == skillID }) else {
            throw HostError(.notFound, "\(skillID) is offered only while an instruction skill is enabled; run 'skillhost list'", skillID: skillID)
        }
        // Activating a nested MCP skill is asked about (fresh consent); the rest only read.
        let consent = skillID == InstructionTools.activate ? arguments["name"]?.stringValue.flatMap(library.activationConsent) : nil
        let skill = SkillDescription(manifest: tool.skill, pluginID: "", pluginPath: "", enabled: true, approval: consent == nil ? .allow : .ask)
        try validator.validate(arguments, for: skill)
        return PreparedCall(skill: skill, arguments: arguments)
    }

    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let arguments = call.arguments
        switch call.skill.id {
        case InstructionTools.activate:
            guard let name = arguments["name"]?.stringValue else {
                throw HostError(.invalidArguments, "activate_skill needs {\"name\": skill name}", skillID: call.skill.id)
            }
            let skill = try await library.loadSkill(named: name)
            // A second activation in a session is not sent twice: the first is still in the conversation
            // (the history trimmer never drops one).
            let active = options.sessionContext.value(forKey: InstructionTools.activatedKey)?.arrayValue?.compactMap(\.stringValue) ?? []
            if active.contains(skill.name) {
                return [
                    "name": .string(skill.name),
                    "already_active": .string("the instructions of \(skill.name) are earlier in this conversation; follow them"),
                ]
            }
            options.sessionContext.set(.array((active + [skill.name]).map(JSONValue.string)), forKey: InstructionTools.activatedKey)
            return InstructionTools.activation(skill)
        case InstructionTools.readFile:
            guard let name = arguments["name"]?.stringValue, let path = arguments["path"]?.stringValue else {
                throw HostError(.invalidArguments, "read_skill_file needs {\"name\", \"path\"}", skillID: call.skill.id)
            }
            let offset = Int(max(0, arguments["offset"]?.intValue ?? 0))
            let (bytes, size) = try await library.loadFile(skill: name, path: path, offset: offset, limit: InstructionTools.fileLimit)
            return try InstructionTools.fileChunk(path: path, offset: offset, bytes: bytes, size: size)
        default:
            return try await base.run(call, options: options)
        }
    }

    /// While a skill is active in the session (activated, and still enabled), the tools its `allowed-tools`
    /// lists run without the question (``AllowedTools``); `run_skill_script` only for that skill's own
    /// scripts. The administrator's policy still asks.
    public func preApproves(_ call: PreparedCall, context: SessionContext) -> Bool {
        let active = context.value(forKey: InstructionTools.activatedKey)?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !active.isEmpty, !library.policyAlwaysAsks(call.skill.id) else { return false }
        return active.contains { name in
            library.allowedTools(ofSkill: name).approves(toolID: call.skill.id, arguments: call.arguments, skill: name)
        }
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { try base.callLimits() }

    public func inputArrived() { base.inputArrived() }
}

/// A backend that adds a section to the system prompt at the start of each turn (the enabled instruction
/// skills' names and descriptions).
public protocol InstructionPromptSource: Sendable {
    /// Text appended to the system prompt ("" for none).
    func instructionPrompt() async -> String
}
