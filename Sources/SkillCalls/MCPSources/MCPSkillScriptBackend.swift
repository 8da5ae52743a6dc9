import SkillHostCore
import SkillJSON

/// `run_skill_script` for the scripts of MCP servers' skills (the Skills extension; docs/mcp-sources.md
/// "Their skills too"), on top of ``ScriptToolBackend`` (the local skills'): the tool's `name` also takes
/// an MCP skill with `scripts/` (`SERVER:PATH`). A run fetches every file of the skill it has not yet,
/// verifies each against the entry (``MCPSkillCatalog/materialize(_:)``: the per-server cache folder, written
/// atomically), then runs the script with the same confined runner as a local skill's: the folder
/// read-only, the session's workspace, no network — and no registry grants (a remote skill gets none).
/// Always asked about (code from a server: explicit approval per run, whatever the registry says of local
/// skills; `--yes` or MCP `--allow-writes` approve).
public struct MCPSkillScriptBackend: SkillBackend {
    /// The backend below (``ScriptToolBackend`` over the rest).
    public let base: any SkillBackend
    /// The MCP servers' skills.
    public let catalog: MCPSkillCatalog
    /// Where the sessions' workspaces are made (the history's state folder).
    public let stateDirectory: String
    private let validator = ArgumentValidator()

    /// The scripts of `catalog`'s skills on top of `base`.
    public init(base: any SkillBackend, catalog: MCPSkillCatalog, stateDirectory: String) {
        self.base = base
        self.catalog = catalog
        self.stateDirectory = stateDirectory
    }

    /// The usable MCP skills that list a file under `scripts/` (blocks while servers are asked).
    private func remoteNames() -> [String] { Self.withScripts(catalog.usableNow()) }

    private static func withScripts(_ skills: [MCPSkillEntry]) -> [String] {
        skills.filter { $0.files?.contains { $0.path.hasPrefix("scripts/") } == true }.map(\.qualifiedName)
    }

    @available(*, noasync, message: "use 'await listTools()'")
    public func tools() throws(HostError) -> [SkillTool] {
        Self.tools(try base.tools(), remote: remoteNames())
    }

    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] {
        Self.tools(try await base.listTools(), remote: Self.withScripts(await catalog.usable()))
    }

    /// `tools` with the script tool offering the `remote` skills too.
    private static func tools(_ tools: [SkillTool], remote: [String]) -> [SkillTool] {
        var tools = tools
        guard !remote.isEmpty else { return tools }
        if let index = tools.firstIndex(where: { $0.id == ScriptToolBackend.toolID }) {
            let local = tools[index].parameters["properties"]?["name"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
            tools[index] = ScriptToolBackend.tool(for: local + remote)
        } else {
            tools.append(ScriptToolBackend.tool(for: remote))
        }
        return tools
    }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard skillID == ScriptToolBackend.toolID, let name = arguments["name"]?.stringValue, name.contains(":") else {
            return try base.prepare(skillID: skillID, arguments: arguments)
        }
        let remote = remoteNames()
        guard remote.contains(name) else {
            if let refusal = catalog.heldSkill(named: name)?.refusal { throw HostError(.denied, refusal, skillID: skillID) }
            throw HostError(.notFound, "MCP skill \(name) has no scripts/; skills with scripts: \(remote.isEmpty ? "(none)" : remote.joined(separator: ", "))", skillID: skillID)
        }
        var skill = SkillDescription(manifest: ScriptToolBackend.tool(for: remote).skill, pluginID: name, pluginPath: "", enabled: true, approval: .ask)
        try validator.validate(arguments, for: skill)
        skill.permission = .write
        return PreparedCall(skill: skill, arguments: arguments)
    }

    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        guard call.skill.id == ScriptToolBackend.toolID, let name = call.arguments["name"]?.stringValue, name.contains(":") else {
            return try await base.run(call, options: options)
        }
        guard let path = call.arguments["path"]?.stringValue else {
            throw HostError(.invalidArguments, "\(ScriptToolBackend.toolID) needs {\"name\": skill, \"path\": script}", skillID: call.skill.id)
        }
        // The script must be one the entry lists (an unlisted file is refused like a mismatch).
        _ = try MCPSkillVerifier.listedFile(path, of: try await catalog.skill(named: name))
        let folder = try await catalog.materialize(name)
        let script = try SkillScript.resolve(skill: name, folder: folder, path: path)
        let workspace = try ScriptWorkspace.forSession(
            ScriptToolBackend.workspaceOwner.map(ScriptToolBackend.workspaceName(owner:)) ?? options.sessionID, stateDirectory: stateDirectory)
        let runner = SkillScriptRunner(hostExecutable: catalog.sources.host.helperExecutable)
        let words = call.arguments["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let input = call.arguments["stdin"]?.stringValue
        let outcome = await BlockingThread.runDetached { () -> Result<ScriptRun, HostError> in
            do throws(HostError) {
                return .success(try runner.run(script, arguments: words, input: input, workspace: workspace, skillFolder: folder))
            } catch {
                return .failure(error)
            }
        }
        return ScriptToolBackend.result(try outcome.get(), name: name, path: path, workspace: workspace)
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { try base.callLimits() }

    public func inputArrived() { base.inputArrived() }
}
