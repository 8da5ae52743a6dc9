import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost add-mcp NAME [options] -- COMMAND [ARGS…]` or `skillhost add-mcp NAME --url URL`: adds an MCP
/// server as a skill source (registry `mcp_servers.NAME`; docs/mcp-sources.md).
enum AddMCPCommand: Command {
    static let name = "add-mcp"
    static let summary = "add an MCP server whose tools become skills NAME.tool"
    static let help = """
        usage: skillhost add-mcp NAME [options] -- COMMAND [ARGS...]
               skillhost add-mcp NAME --url URL [--header 'Name: value']...

        Adds an MCP server to the registry (mcp_servers.NAME). Its tools become skills NAME.tool in 'list',
        'inspect', 'call', 'chat' and 'skillhost mcp'. A stdio server (COMMAND, found on PATH and stored as an
        absolute path) runs sandboxed: its own installation read-only, a data folder of its own
        ($XDG_DATA_HOME/skillhost/mcp-data/NAME) read-write, and only what the options below add.

        Secrets are never written into the registry: give them as references to your environment, e.g.
        --env 'GITHUB_TOKEN=${GITHUB_TOKEN}' or --header 'Authorization: Bearer ${MCP_TOKEN}' (single quotes,
        so the shell does not expand them); they are expanded when the server starts.

        Options:
          --env NAME=VALUE      a variable for the server (repeatable); VALUE may hold ${VARIABLE} references
          --read PATH           let it read PATH (repeatable)
          --read-write PATH     let it read and write PATH (repeatable)
          --network none|any|PORT[,PORT...]   its network (default none)
          --timeout SECONDS     a call's timeout (default 60; reset while the server reports progress)
          --url URL             a Streamable HTTP server instead of a command
          --header 'Name: value'  an HTTP header (repeatable, with --url)
          --replace             change an existing entry (its tools' settings and trust pins stay)
          --json                print the entry as stored

        Exit codes: \(ExitCode.usage) wrong words, \(ExitCode.notFound) COMMAND not found, \(ExitCode.registryError) a bad entry or a name in use, \(ExitCode.denied) blocked by the administrator's policy.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        // Everything after `--` is the server's command line, untouched.
        let split = arguments.firstIndex(of: "--")
        let own = Array(arguments[..<(split ?? arguments.count)])
        let command = split.map { Array(arguments[($0 + 1)...]) } ?? []
        // Repeatable options are collected here; the rest goes to the common parser.
        var repeated: [String: [String]] = ["--env": [], "--read": [], "--read-write": [], "--header": []]
        var rest: [String] = []
        var index = 0
        while index < own.count {
            let word = own[index]
            if let equals = word.firstIndex(of: "="), repeated[String(word[..<equals])] != nil {
                repeated[String(word[..<equals]), default: []].append(String(word[word.index(after: equals)...]))
            } else if repeated[word] != nil {
                guard index + 1 < own.count else { throw UsageError("option \(word) needs a value") }
                repeated[word, default: []].append(own[index + 1])
                index += 1
            } else {
                rest.append(word)
            }
            index += 1
        }
        let parsed = try ParsedArguments(rest, flags: ["--json", "--replace"], options: ["--url", "--network", "--timeout"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected NAME, then -- COMMAND [ARGS...] or --url URL") }
        let name = Identifier.normalize(parsed.positionals[0])
        let problem = Identifier.problem(with: name)
        guard problem.isEmpty else { throw UsageError("the name \"\(parsed.positionals[0])\" \(problem)") }
        let transport: MCPServerEntry.Transport
        switch (parsed.options["--url"], command.first) {
        case (let url?, nil):
            var headers: [String: String] = [:]
            for header in repeated["--header"] ?? [] {
                guard let colon = header.firstIndex(of: ":"), !header[..<colon].isEmpty else {
                    throw UsageError("--header \"\(header)\" is not 'Name: value'")
                }
                headers[String(header[..<colon]).trimmingCharacters(in: .whitespaces)] =
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            transport = .http(url: url, headers: headers)
        case (nil, let program?):
            guard repeated["--header"]?.isEmpty ?? true else { throw UsageError("--header goes with --url, not a command") }
            guard let resolved = MCPServerInstallation.resolve(command: program) else {
                throw HostError(.notFound, "MCP server \(name): the command \"\(program)\" is not an executable file or on PATH; install it (e.g. 'pipx install \(program)' or a virtual environment) and give its path")
            }
            transport = .stdio(command: resolved, arguments: Array(command.dropFirst()))
        case (_?, _?):
            throw UsageError("give either --url URL or -- COMMAND, not both")
        case (nil, nil):
            throw UsageError("expected -- COMMAND [ARGS...] (a stdio server) or --url URL (a Streamable HTTP server)")
        }
        var entry = MCPServerEntry(name: name, transport: transport)
        for pair in repeated["--env"] ?? [] {
            guard let equals = pair.firstIndex(of: "="), !pair[..<equals].isEmpty else {
                throw UsageError("--env \"\(pair)\" is not NAME=VALUE")
            }
            entry.environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        for (option, access) in [("--read", PluginCapabilities.Access.read), ("--read-write", .readWrite)] {
            for path in repeated[option] ?? [] {
                entry.files.append(SandboxPolicy.Rule(path: Posix.absolutePath(path), access: access))
            }
        }
        if let network = parsed.options["--network"] {
            switch network {
            case "none": entry.network = .none
            case "any": entry.network = .any
            default:
                let ports = network.split(separator: ",").compactMap { Int($0) }
                guard !ports.isEmpty, ports.count == network.split(separator: ",").count, ports.allSatisfy({ (1...65535).contains($0) }) else {
                    throw UsageError("--network must be none, any or TCP ports like 443,8443; got \"\(network)\"")
                }
                entry.network = .tcpConnect(ports)
            }
        }
        if let timeout = parsed.options["--timeout"] {
            guard let seconds = Double(timeout), seconds > 0, seconds <= 86_400 else {
                throw UsageError("--timeout must be seconds between 0 and 86400, got \"\(timeout)\"")
            }
            entry.timeout = seconds
        }
        try add(entry, host: HostOptions.host(parsed), replacing: parsed.has("--replace"))
        if parsed.has("--json") {
            HostOptions.printJSON(.object(entry.json))
        } else {
            print("added MCP server \(name) (\(describe(transport))); its tools are skills \(name).TOOL: run 'skillhost list' to see them")
        }
        return ExitCode.success
    }

    /// Adds the entry; a fault of the entry's own check names the member it is about, without the registry's
    /// pointer prefix.
    private static func add(_ entry: MCPServerEntry, host: SkillHost, replacing: Bool) throws(HostError) {
        do {
            try host.addMCPServer(entry, replacing: replacing)
        } catch {
            let prefix = "registry /mcp_servers/\(entry.name)"
            guard error.kind == .registry, error.message.hasPrefix(prefix) else { throw error }
            var member = String(error.message.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            // Name the option that made the member, not its place in the registry.
            for (pointer, option) in [("/env/", "--env "), ("/headers/", "--header "), ("/files/", "--read "), ("/url", "--url"), ("/network", "--network"), ("/timeout", "--timeout")]
            where member.hasPrefix(pointer) {
                member = option + member.dropFirst(pointer.count)
                break
            }
            throw HostError(.registry, "MCP server \(entry.name): " + member)
        }
    }

    private static func describe(_ transport: MCPServerEntry.Transport) -> String {
        switch transport {
        case .stdio(let program, let words): return ([program] + words).joined(separator: " ")
        case .http(let url, _): return url
        }
    }
}
