import Foundation
import SkillJSON

extension HostPaths {
    /// The data folder of one MCP server (`$XDG_DATA_HOME/skillhost/mcp-data/<name>/`): its `HOME` and
    /// `TMPDIR`, the one place it may write unless its entry grants more. Beside the plugins' data folders,
    /// never among them (a plugin may have any id).
    public func dataDirectory(forMCPServer name: String) -> String {
        Posix.directoryName(of: data) + "/mcp-data/" + Identifier.normalize(name)
    }
}

/// Starts a stdio MCP server confined (docs/mcp-sources.md, "Sandbox"): through `skillhost-sandbox --confine`
/// (``ConfinedProgram``), with its installation read-only (``MCPServerInstallation``), the system's
/// programs and libraries, its data folder read-write, and what its registry entry declares (`files`,
/// `network`, `processes`, `env`); its environment an allow-list. Nothing of it runs outside.
public struct MCPServerLauncher: Sendable {
    /// The `skillhost` executable (`skillhost-sandbox` is found beside it).
    public var hostExecutable: String
    /// The host's folders (the server's data folder is made under them).
    public var paths: HostPaths
    /// Where the server's stderr lines go (the trace, `--verbose`), never the terminal.
    public var output: PluginOutputSink
    /// The host's environment (`${NAME}` references are expanded from it).
    public var environment: [String: String]
    /// The registry's `trust` policy: under `required` an unpinned server is not started.
    public var trustPolicy: TrustPolicy = .warn
    /// The HTTP client for Streamable HTTP servers (the host's one, handed in by the front end; nil: such
    /// servers cannot be called from here).
    public var httpClient: (any MCPHTTPClient)?

    public init(hostExecutable: String, paths: HostPaths, output: PluginOutputSink = .discard, environment: [String: String]? = nil) {
        self.hostExecutable = hostExecutable
        self.paths = paths
        self.output = output
        self.environment = environment ?? Posix.environment()
    }

    /// System configuration any server may read besides what every confined program may (none of it
    /// secret): name resolution, TLS certificates, git's and MIME's system-wide settings. Paths that do not
    /// exist grant nothing.
    public static let systemConfiguration = [
        "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf",
        "/etc/host.conf", "/etc/gai.conf", "/etc/gitconfig", "/etc/mime.types",
    ]

    /// The sandbox `entry` runs in (what `inspect` shows).
    public func policy(for entry: MCPServerEntry) -> SandboxPolicy {
        var rules = [SandboxPolicy.Rule(path: paths.dataDirectory(forMCPServer: entry.name), access: .readWrite)]
        rules += entry.files
        rules += Self.systemConfiguration.filter(Posix.exists).map { SandboxPolicy.Rule(path: $0, access: .read) }
        return SandboxPolicy(mode: .required, rules: rules, network: entry.network, processes: entry.processes)
    }

    /// The installation a stdio entry's program needs (nil for an HTTP server).
    public func installation(for entry: MCPServerEntry) -> MCPServerInstallation? {
        guard case .stdio(let command, _) = entry.transport else { return nil }
        return MCPServerInstallation(program: command)
    }

    /// The confined program for a stdio entry.
    public func program(for entry: MCPServerEntry) throws(HostError) -> ConfinedProgram {
        guard case .stdio(let command, let arguments) = entry.transport, let installation = installation(for: entry) else {
            let url: String = if case .http(let url, _) = entry.transport { url } else { "" }
            throw HostError(.invalidPlugin,
                "MCP server \(entry.name) is reached over Streamable HTTP (\(url)): nothing of it runs here, so there is no program to confine",
                pluginID: entry.name)
        }
        let policy = policy(for: entry)
        var program = ConfinedProgram(
            program: command, arguments: arguments, policy: policy, executablePaths: installation.paths.filter { $0 != command },
            workingDirectory: paths.dataDirectory(forMCPServer: entry.name),
            limits: ResourceLimits(addressSpaceMB: 8192, cpuSeconds: 3600, openFiles: 1024, processes: 256, fileSizeMB: 1024))
        program.singleProcess = true
        return program
    }

    /// The server's environment: the allow-list every worker gets, `HOME` and `TMPDIR` in its data folder, and
    /// its entry's `env` with references expanded.
    /// - Throws: ``HostError`` (`denied`) when a referenced variable is not set.
    public func serverEnvironment(for entry: MCPServerEntry) throws(HostError) -> [String] {
        let data = paths.dataDirectory(forMCPServer: entry.name)
        var entries = WorkerEnvironment.merged(WorkerEnvironment.base(), WorkerEnvironment.plugin(dataDirectory: data, granted: []))
        var own: [String] = ["PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1"]
        for (name, value) in entry.environment.sorted(by: { $0.key < $1.key }) {
            own.append("\(name)=" + (try MCPSecrets.expand(value, environment: environment, usedBy: "mcp_servers.\(entry.name).env.\(name)")))
        }
        entries = WorkerEnvironment.merged(entries, own)
        return entries
    }

    /// Starts the server and returns the connection (not yet initialized).
    /// - Throws: ``HostError``: `denied` when it cannot be confined or a variable is missing, `io` when it
    ///   cannot be started.
    public func start(_ entry: MCPServerEntry) throws(HostError) -> MCPClientConnection {
        if case .http(let url, let headers) = entry.transport { return try connect(entry.name, url: url, headers: headers) }
        try MCPServerTrust.check(entry, policy: trustPolicy)
        let program = try program(for: entry)
        guard Posix.isExecutableFile(program.program) else {
            throw HostError(.notFound, "MCP server \(entry.name): \(program.program) is not an executable file; install it, or run 'skillhost add-mcp \(entry.name) -- COMMAND' again with its path", pluginID: entry.name)
        }
        let environment = try serverEnvironment(for: entry)
        program.policy.createMissingWritableFolders()
        try? Posix.makeDirectories(WorkerEnvironment.temporaryFolder(dataDirectory: paths.dataDirectory(forMCPServer: entry.name)))
        let (executable, words) = try program.launchCommand(hostExecutable: hostExecutable)
        return try MCPClientConnection.start(name: entry.name, sink: output) { () throws(HostError) in
            try Posix.spawnPiped(executable, arguments: words, pipeStandardInput: true, standardError: .pipe, environment: environment)
        }
    }

    /// A connection to a Streamable HTTP server (nothing is started: its requests go out as they are made).
    /// - Throws: ``HostError`` (`denied`) when a header refers to a variable that is not set.
    private func connect(_ name: String, url: String, headers: [String: String]) throws(HostError) -> MCPClientConnection {
        guard let httpClient else {
            throw HostError(.invalidPlugin,
                "MCP server \(name) is reached over Streamable HTTP (\(url)), which this front end cannot call; use 'skillhost call', 'chat' or 'mcp'",
                pluginID: name)
        }
        var expanded: [String: String] = [:]
        var referenced: [String] = []
        for (field, value) in headers.sorted(by: { $0.key < $1.key }) {
            expanded[field] = try MCPSecrets.expand(value, environment: environment, usedBy: "MCP server \(name)'s header \(field) (mcp_servers.\(name).headers)")
            referenced += MCPSecrets.references(in: value)
        }
        return MCPClientConnection(http: MCPHTTPWire(name: name, url: url, headers: expanded, referenced: referenced, client: httpClient))
    }
}
