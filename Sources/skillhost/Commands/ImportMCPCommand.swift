import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost import-mcp FILE`: adds the MCP servers of another client's configuration.
enum ImportMCPCommand: Command {
    static let name = "import-mcp"
    static let summary = "add the MCP servers of a Claude Desktop, Cursor or VS Code configuration"
    static let help = """
        usage: skillhost import-mcp FILE [--replace] [--json]

        Reads FILE — Claude Desktop's claude_desktop_config.json or Cursor's mcp.json ("mcpServers"), or
        VS Code's .vscode/mcp.json ("servers") — and adds each server as 'skillhost add-mcp' would. Secrets are
        not copied: a credential-named variable or header with a written-out value becomes a ${NAME}
        reference, and the line for that server names what to export. A server that cannot be added (its
        command is not installed, its name is not an id, a name in use) is named with the reason; the others
        are added. Examples of each shape: docs/mcp-sources.md.

        Options:
          --replace  change servers that are already in the registry
          --json     print [{"name","added","problem","export"}]

        Exit codes: \(ExitCode.success) every server added, \(ExitCode.failure) some could not be, \(ExitCode.notFound) no FILE, \(ExitCode.usage) not a configuration.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--replace"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one FILE") }
        let file = parsed.positionals[0]
        guard let data = FileManager.default.contents(atPath: file) else {
            throw HostError(.notFound, "\(file): no such file (or it cannot be read); give the path of a claude_desktop_config.json, mcp.json or .vscode/mcp.json")
        }
        let bytes = Array(data)
        let items: [MCPServerImport.Item]
        do {
            items = try MCPServerImport.read(bytes, file: file)
        } catch {
            throw UsageError(error.message)
        }
        let host = HostOptions.host(parsed)
        var report: [JSONValue] = []
        var failed = false
        for var item in items {
            if let entry = item.entry {
                do {
                    try host.addMCPServer(entry, replacing: parsed.has("--replace"))
                } catch {
                    item.problem = error.message
                }
            }
            failed = failed || item.problem != nil
            report.append([
                "name": .string(item.name), "added": .bool(item.problem == nil),
                "problem": item.problem.map(JSONValue.string) ?? .null, "export": .array(item.exports.map(JSONValue.string)),
            ])
            guard !parsed.has("--json") else { continue }
            if let problem = item.problem {
                ErrorReporter.printError("import-mcp: \(item.name) not added: \(problem)")
            } else {
                let exports = item.exports.isEmpty ? "" : "; export \(item.exports.joined(separator: ", ")) before it starts (its secret was not copied)"
                print("added MCP server \(item.name)\(exports)")
            }
        }
        if parsed.has("--json") { HostOptions.printJSON(.array(report)) }
        return failed ? ExitCode.failure : ExitCode.success
    }
}
