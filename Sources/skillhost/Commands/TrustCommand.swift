import SkillHostCore
import SkillJSON

/// `skillhost trust ID [--json]`: pins the SHA-256 of a plugin's file in the registry.
enum TrustCommand: Command {
    static let name = "trust"
    static let summary = "pin a plugin file's SHA-256, or trust a project folder's skills (--folder)"
    static let help = """
        usage: skillhost trust PLUGIN_ID [--json]
               skillhost trust --folder PATH [--revoke] [--json]

        Computes the SHA-256 of the plugin's file and records it in the registry (plugins.<id>.sha256).
        From then on the plugin runs only while its file has that digest; after an update, review the new
        file and run 'skillhost trust' again. The registry's "trust" policy ("warn", the default, or
        "required") decides whether untrusted plugins may run. Files or folders others can write are
        refused (fix with 'chmod go-w FILE').

        --folder PATH trusts a project folder: commands run in it (chat, list, mcp, call…) then load the
        instruction skills of its .agents/skills/ and .claude/skills/ (a project's skill wins over yours of the
        same name). Read them first: a skill's instructions go to the model. --revoke stops trusting it.
        The folders are kept in the registry (trusted_folders).

        Options:
          --folder PATH  trust the project folder PATH ('.' for the working folder)
          --revoke       with --folder: stop trusting it
          --json    print {"plugin","path","sha256","previous_sha256"}; with --folder {"folder","trusted",
                    "was_trusted","skill_folders"}

        Exit codes: \(ExitCode.notFound) unknown plugin, \(ExitCode.denied) unsafe file permissions, \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--revoke"], options: ["--folder"])
        if let folder = parsed.options["--folder"] {
            guard parsed.positionals.isEmpty else {
                throw UsageError("--folder takes the folder as its value, with no PLUGIN_ID ('\(parsed.positionals[0])'); e.g. 'skillhost trust --folder .'")
            }
            return try trustFolder(folder, revoke: parsed.has("--revoke"), parsed)
        }
        if parsed.has("--revoke") { throw UsageError("--revoke goes with --folder PATH; to stop trusting a plugin run 'skillhost untrust PLUGIN_ID'") }
        guard parsed.positionals.count == 1 else { throw UsageError("expected one PLUGIN_ID, or --folder PATH") }
        if let entry = try MCPTrustOutput.trust(parsed, pin: true) {
            MCPTrustOutput.print(entry, json: parsed.has("--json"))
            return ExitCode.success
        }
        let change = try HostOptions.host(parsed).trust(pluginID: parsed.positionals[0])
        TrustOutput.print(change, json: parsed.has("--json"))
        return ExitCode.success
    }
}

extension TrustCommand {
    /// `trust --folder PATH [--revoke]`.
    static func trustFolder(_ path: String, revoke: Bool, _ parsed: ParsedArguments) throws -> Int32 {
        let change = try HostOptions.host(parsed).trustFolder(path, revoke: revoke)
        if parsed.has("--json") {
            HostOptions.printJSON([
                "folder": .string(change.folder), "trusted": .bool(change.trusted), "was_trusted": .bool(change.wasTrusted),
                "skill_folders": .array(change.skillFolders.map(JSONValue.string)),
            ])
        } else if change.trusted {
            let skills = change.skillFolders.isEmpty
                ? "it holds no \(ProjectSkills.folderNames.joined(separator: " or ")) yet"
                : "its skills in \(change.skillFolders.joined(separator: ", ")) load in commands run there"
            print("trusted folder \(change.folder)\(change.wasTrusted ? " (already)" : ""): \(skills); undo with 'skillhost trust --folder \(change.folder) --revoke'")
        } else {
            print(change.wasTrusted
                ? "folder \(change.folder) is no longer trusted: its project skills are not loaded"
                : "folder \(change.folder) was not trusted; nothing changed")
        }
        return ExitCode.success
    }
}

/// Prints what `trust` / `untrust` changed.
enum TrustOutput {
    static func print(_ change: SkillHost.TrustChange, json: Bool) {
        if json {
            HostOptions.printJSON([
                "plugin": .string(change.pluginID), "path": .string(change.path),
                "sha256": change.sha256.map(JSONValue.string) ?? .null,
                "previous_sha256": change.previousSHA256.map(JSONValue.string) ?? .null,
            ])
        } else if let digest = change.sha256 {
            let note = change.previousSHA256.map { $0 == digest ? " (unchanged)" : " (was \($0))" } ?? ""
            Swift.print("trusted plugin \(change.pluginID): sha256 \(digest)\(note) for \(change.path)")
        } else {
            Swift.print("plugin \(change.pluginID) is no longer trusted (\(change.path))")
        }
    }
}

/// `trust NAME` / `untrust NAME` of an MCP server: its command (and a script's interpreter) pinned by SHA-256.
enum MCPTrustOutput {
    /// The server's entry after pinning, or nil when the id names no MCP server.
    static func trust(_ parsed: ParsedArguments, pin: Bool) throws -> MCPServerEntry? {
        let host = HostOptions.host(parsed)
        let name = Identifier.normalize(parsed.positionals[0])
        guard try host.mcpServers().contains(where: { $0.name == name }) else { return nil }
        return try host.trustMCPServer(name, pin: pin)
    }

    static func print(_ entry: MCPServerEntry, json: Bool) {
        let files = MCPServerTrust.files(of: entry)
        if json {
            HostOptions.printJSON([
                "mcp_server": .string(entry.name), "path": .string(files?.command ?? ""),
                "sha256": entry.sha256.map(JSONValue.string) ?? .null,
                "interpreter": files?.interpreter.map(JSONValue.string) ?? .null,
                "interpreter_sha256": entry.interpreterSHA256.map(JSONValue.string) ?? .null,
            ])
        } else if let digest = entry.sha256 {
            let interpreter = zip(files?.interpreter, entry.interpreterSHA256).map { ", interpreter \($0) sha256 \($1)" } ?? ""
            Swift.print("trusted MCP server \(entry.name): sha256 \(digest) for \(files?.command ?? "")\(interpreter)")
        } else {
            Swift.print("MCP server \(entry.name) is no longer trusted (\(files?.command ?? ""))")
        }
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
