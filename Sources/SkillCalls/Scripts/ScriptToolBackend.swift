import SkillHostCore
import SkillJSON
import StableHash

/// A ``SkillBackend`` that adds the script tool to another backend (issue #30): while an enabled instruction
/// skill bundles scripts, `run_skill_script` (skill `name`, `path` in its folder, `args`, `stdin`) is offered
/// beside the base backend's tools — to the agent, over MCP, to every front end alike — and runs the script
/// confined (``SkillHost/runInstructionScript(skill:path:arguments:input:workspace:runner:)``) in the
/// session's workspace (`<state>/workspaces/<session>/`). A script is code: a call is approved as a skill of the
/// named skill's registry `permission` is (``ScriptPolicy``: `write` by default; its `approval` as a plugin
/// skill's), so `--yes`, MCP's `--allow-writes` and the registry apply as for plugins. Every other call goes
/// to the base backend.
public struct ScriptToolBackend: SkillBackend {
    /// The tool's id (and name).
    public static let toolID = ScriptPolicy.toolID

    /// The backend for every other tool.
    public let base: any SkillBackend
    /// The host whose instruction skills' scripts run.
    public let host: SkillHost
    /// Where the sessions' workspaces are made (the history's state folder).
    public let stateDirectory: String
    /// Runs the scripts (limits, caps); nil: the host's defaults.
    public var runner: SkillScriptRunner?
    private let validator = ArgumentValidator()

    /// Who the calls of this task run for when that is not the whole session: `skillhost mcp --http` sets
    /// the bearer token's name, because every client of a replica shares one session there, and each token
    /// gets a workspace of its own (``workspaceName(owner:)``). Nil: the session's workspace.
    @TaskLocal public static var workspaceOwner: String?

    /// The workspace folder's name for `owner` (`mcp-token-<name>-<hash of the name>`: token names that
    /// differ only in characters a folder name does not keep get different folders).
    public static func workspaceName(owner: String) -> String {
        "mcp-token-\(owner)-\(FNV1a.hex(FNV1a.hash64(owner)))"
    }

    /// The script tool for `host`'s instruction skills on top of `base`; workspaces under `stateDirectory`.
    public init(base: any SkillBackend, host: SkillHost, stateDirectory: String) {
        self.base = base
        self.host = host
        self.stateDirectory = stateDirectory
    }

    @available(*, noasync, message: "use 'await listTools()'")
    public func tools() throws(HostError) -> [SkillTool] {
        let skills = (try? host.instructionSkillsWithScripts().map(\.id)) ?? []
        return try base.tools() + (skills.isEmpty ? [] : [Self.tool(for: skills)])
    }

    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] {
        let skills = (try? host.instructionSkillsWithScripts().map(\.id)) ?? []
        return try await base.listTools() + (skills.isEmpty ? [] : [Self.tool(for: skills)])
    }

    /// The tool, offered for the skills named `skills`.
    public static func tool(for skills: [String]) -> SkillTool {
        SkillTool(
            id: toolID, title: "Run a script of an instruction skill",
            description: "Runs one script bundled with an instruction skill (a path from the file list activate_skill returns, e.g. scripts/fill.py) with the interpreter its #! line or extension names, in a sandbox: the skill's folder read-only, the session's workspace as working folder and the only place it may write, no network. Arguments are a list, never a shell line. Returns the exit status, stdout, stderr, the time it took and the files it wrote in the workspace. Activate the skill first and follow its instructions.",
            parameters: [
                "type": "object",
                "properties": [
                    "name": ["type": "string", "enum": .array(skills.map(JSONValue.string)), "description": "The skill's name"],
                    "path": ["type": "string", "minLength": 1, "description": "The script's path relative to the skill folder, e.g. scripts/run.py"],
                    "args": ["type": "array", "items": ["type": "string"], "maxItems": 256, "description": "Arguments, one string each (paths are relative to the workspace)"],
                    "stdin": ["type": "string", "description": "Text for the script's standard input (default: none)"],
                ],
                "required": ["name", "path"], "additionalProperties": false,
            ],
            // No summary template: the model and MCP clients that read text need the output itself.
            permission: .write, timeout: SkillScriptRunner.defaultTimeout)
    }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard skillID == Self.toolID else { return try base.prepare(skillID: skillID, arguments: arguments) }
        let records = try host.instructionSkillsWithScripts()
        let skills = records.map(\.id)
        guard !skills.isEmpty else {
            throw HostError(.notFound, "\(skillID) is offered only while an enabled instruction skill has scripts; run 'skillhost list'", skillID: skillID)
        }
        var skill = SkillDescription(manifest: Self.tool(for: skills).skill, pluginID: "", pluginPath: "", enabled: true, approval: .ask)
        try validator.validate(arguments, for: skill)
        // Approved as a skill of the named skill's permission, under its registry entry (ScriptPolicy), so
        // the approval's question and every refusal name the skill and the setting to change.
        let name = arguments["name"]?.stringValue ?? ""
        let record = records.first { $0.id == name }
        let policy = record?.scripts ?? .standard
        skill.pluginID = name
        skill.pluginPath = record?.folder ?? ""
        skill.permission = policy.permission
        skill.approval = policy.approval
        if policy.approval == .deny {
            throw HostError(
                .denied, "the scripts of \(skill.pluginID) are denied by the registry (\(ScriptPolicy.settingPath(skill: skill.pluginID, key: "approval")) is \"deny\"); nothing was run. Allow them with 'skillhost set \(skill.pluginID) approval ask'",
                skillID: Self.toolID, pluginID: skill.pluginID)
        }
        return PreparedCall(skill: skill, arguments: arguments)
    }

    /// Itself for the script tool, the base's runner for the rest.
    public func runner(for call: PreparedCall) -> any SkillBackend {
        call.skill.id == Self.toolID ? self : base.runner(for: call)
    }

    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        guard call.skill.id == Self.toolID else { return try await base.run(call, options: options) }
        let arguments = call.arguments
        guard let name = arguments["name"]?.stringValue, let path = arguments["path"]?.stringValue else {
            throw HostError(.invalidArguments, "\(Self.toolID) needs {\"name\": skill, \"path\": script}", skillID: Self.toolID)
        }
        let words = arguments["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let workspace = try ScriptWorkspace.forSession(
            Self.workspaceOwner.map(Self.workspaceName(owner:)) ?? options.sessionID, stateDirectory: stateDirectory)
        let run = try await host.runInstructionScript(
            skill: name, path: path, arguments: words, input: arguments["stdin"]?.stringValue, workspace: workspace, runner: runner)
        return Self.result(run, name: name, path: path, workspace: workspace)
    }

    /// A run as the tool's result: the run's JSON with the skill, the script and the workspace.
    static func result(_ run: ScriptRun, name: String, path: String, workspace: ScriptWorkspace) -> JSONValue {
        guard case .object(var result) = run.json else { return run.json }
        result["name"] = .string(name)
        result["path"] = .string(path)
        result["workspace"] = .string(workspace.folder)
        return .object(result)
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { try base.callLimits() }

    public func inputArrived() { base.inputArrived() }
}
