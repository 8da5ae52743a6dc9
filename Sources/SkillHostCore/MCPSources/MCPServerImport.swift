import Foundation
import SkillJSON

/// Reads the MCP server lists other clients keep (docs/mcp-sources.md, "import-mcp"): Claude Desktop's and
/// Cursor's `{"mcpServers": {NAME: {"command", "args", "env"} | {"url", "headers"}}}`, and VS Code's
/// `{"servers": {NAME: {"type": "stdio"|"http"|"sse", …}}}` (`.vscode/mcp.json`; or under `"mcp"` in its
/// settings). Secrets are not carried over: a credential-named variable or header with a written-out value
/// becomes a `${NAME}` reference and the user is told to export it; VS Code's `${env:NAME}` is `${NAME}`,
/// its `${input:ID}` a reference to `ID` in upper case.
public enum MCPServerImport {
    /// One server found in the file: the entry to add, or why it cannot be, and what the user must do.
    public struct Item: Sendable {
        public var name: String
        public var entry: MCPServerEntry?
        public var problem: String?
        /// Variables to export before the server starts (secrets the file held, inputs VS Code would ask).
        public var exports: [String] = []
    }

    /// The servers of the file's text.
    /// - Throws: ``HostError`` (`invalidArguments`) when the file is not JSON or has no server list, naming
    ///   the line and column or the members looked for.
    public static func read(_ bytes: [UInt8], file: String) throws(HostError) -> [Item] {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw HostError(.invalidArguments, "\(file): line \(error.line), column \(error.column): \(error.reason); give a JSON file with \"mcpServers\" (Claude Desktop, Cursor) or \"servers\" (VS Code)")
        }
        guard let servers = document["mcpServers"]?.objectValue ?? document["servers"]?.objectValue
            ?? document["mcp"]?["servers"]?.objectValue
        else {
            throw HostError(.invalidArguments, "\(file) has no \"mcpServers\" (Claude Desktop, Cursor) or \"servers\" (VS Code) object; nothing was imported")
        }
        return servers.map { key, value in item(key, value, file: file) }
    }

    static func item(_ key: String, _ value: JSONValue, file: String) -> Item {
        let name = Identifier.normalize(key).map { $0 == " " ? "-" : $0 }.reduce(into: "") { $0.append($1) }
        var item = Item(name: name)
        let problem = Identifier.problem(with: name)
        guard problem.isEmpty else {
            item.problem = "the name \"\(key)\" \(problem); add it by hand with 'skillhost add-mcp NAME …'"
            return item
        }
        let type = value["type"]?.stringValue ?? (value["url"] != nil ? "http" : "stdio")
        var exports: [String] = []
        func reference(_ name: String, _ text: String, kind: String) -> String {
            // VS Code's own references first.
            var text = text.replacingOccurrences(of: "${env:", with: "${")
            while let range = text.range(of: "${input:") {
                guard let end = text[range.upperBound...].firstIndex(of: "}") else { break }
                let id = String(text[range.upperBound..<end]).uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
                let variable = String(id)
                exports.append(variable)
                text.replaceSubrange(range.lowerBound...end, with: "${\(variable)}")
            }
            if MCPSecrets.literalSecretProblem(name: name, value: text, kind: kind) != nil {
                let variable = String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
                let variableName = variable == "AUTHORIZATION" ? "\(item.name.uppercased().replacingOccurrences(of: "-", with: "_"))_TOKEN" : variable
                exports.append(variableName)
                return text.hasPrefix("Bearer ") ? "Bearer ${\(variableName)}" : "${\(variableName)}"
            }
            return text
        }
        let transport: MCPServerEntry.Transport
        switch type {
        case "stdio":
            guard let command = value["command"]?.stringValue, !command.isEmpty else {
                item.problem = "has no \"command\""
                return item
            }
            guard let resolved = MCPServerInstallation.resolve(command: command) else {
                item.problem = "its command \"\(command)\" is not an executable file or on PATH; install it, then import again"
                return item
            }
            transport = .stdio(command: resolved, arguments: value["args"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        case "http", "sse", "streamable-http":
            guard let url = value["url"]?.stringValue else {
                item.problem = "has no \"url\""
                return item
            }
            var headers: [String: String] = [:]
            for (field, text) in value["headers"]?.objectValue ?? [:] {
                if let text = text.stringValue { headers[field] = reference(field, text, kind: "header") }
            }
            transport = .http(url: url, headers: headers)
        default:
            item.problem = "has \"type\": \"\(type)\"; skillhost imports stdio and http servers"
            return item
        }
        var entry = MCPServerEntry(name: name, transport: transport)
        for (variable, text) in value["env"]?.objectValue ?? [:] {
            if let text = text.stringValue { entry.environment[variable] = reference(variable, text, kind: "variable") }
        }
        if value["disabled"]?.boolValue == true { entry.enabled = false }
        item.entry = entry
        item.exports = Array(Set(exports)).sorted()
        return item
    }
}
