import SkillHostCore
import SkillJSON

/// `skillhost grant PLUGIN_ID CAPABILITY [--revoke] [--json]`: lets a sandboxed plugin do one thing beyond
/// its manifest (or takes that back).
enum GrantCommand: Command {
    static let name = "grant"
    static let summary = "let a sandboxed plugin do one more thing (or --revoke it)"
    static let help = """
        usage: skillhost grant PLUGIN_ID CAPABILITY [--revoke] [--json]

        Records your decision that a plugin may do one thing its manifest does not declare, in the registry
        (plugins.<id>.grants); its next worker runs with it. --revoke takes a grant back. Check what a plugin
        declares first: 'skillhost inspect PLUGIN_ID'. PLUGIN_ID may be an MCP server's name: its entry
        (mcp_servers.<name>: network, files, env) is widened; it restarts with it. PLUGIN_ID may be an instruction skill's id: its scripts
        (run_skill_script) then run with the grant (registry plugins.<id>.grants too).

        CAPABILITY is one of:
          processes                     start child processes
          network:any                   any network access
          network:tcp:PORT              TCP connections to PORT
          home:PATH:read|read-write     PATH under your home folder (relative, no "..")
          config:KEY:read|read-write    the path in the plugin's registry config.KEY

        Options:
          --revoke  remove the grant
          --json    print {"plugin","capability","granted","grants","previous_grants"}

        Exit codes: \(ExitCode.usage) not a capability, \(ExitCode.notFound) unknown plugin, \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--revoke"], options: [])
        guard parsed.positionals.count == 2 else { throw UsageError("expected PLUGIN_ID and CAPABILITY") }
        guard Capability(parsed.positionals[1]) != nil else {
            throw UsageError("'\(parsed.positionals[1])' is not a capability; use one of \(Capability.syntax)")
        }
        let host = HostOptions.host(parsed)
        if try host.mcpServers().contains(where: { $0.name == Identifier.normalize(parsed.positionals[0]) }) {
            let entry = try host.grantMCPServer(parsed.positionals[0], capability: parsed.positionals[1], revoke: parsed.has("--revoke"))
            if parsed.has("--json") {
                HostOptions.printJSON(.object(entry.json))
            } else {
                print("\(parsed.has("--revoke") ? "revoked from" : "granted") MCP server \(entry.name): \(parsed.positionals[1]); 'skillhost inspect \(entry.name)' shows its sandbox")
            }
            return ExitCode.success
        }
        let change = try host.grant(
            pluginID: parsed.positionals[0], capability: parsed.positionals[1], revoke: parsed.has("--revoke"))
        if parsed.has("--json") {
            HostOptions.printJSON([
                "plugin": .string(change.pluginID), "capability": .string(change.capability), "granted": .bool(change.granted),
                "grants": .array(change.grants.map(JSONValue.string)),
                "previous_grants": .array(change.previousGrants.map(JSONValue.string)),
            ])
        } else if change.granted {
            print("granted \(change.pluginID): \(change.capability) (grants: \(change.grants.joined(separator: ", ")))")
        } else {
            print("revoked from \(change.pluginID): \(change.capability) (grants left: \(change.grants.isEmpty ? "none" : change.grants.joined(separator: ", ")))")
        }
        return ExitCode.success
    }
}
