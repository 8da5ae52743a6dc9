import SkillJSON

/// One MCP server used as a skill source (registry `mcp_servers.<name>`, docs/mcp-sources.md): how it is
/// reached (a stdio command, or a Streamable HTTP URL), what its sandbox holds beyond its own installation
/// (`files`, `network`, `processes`, `env`), and the user's decisions about it and its tools. Secrets are never
/// stored: `env` values and `headers` that carry one are `${NAME}` references to the host's environment,
/// expanded when the server starts.
public struct MCPServerEntry: Sendable, Equatable {
    /// How the server is reached.
    public enum Transport: Sendable, Equatable {
        /// A program started by the host, JSON-RPC on its stdin and stdout.
        case stdio(command: String, arguments: [String])
        /// A Streamable HTTP endpoint.
        case http(url: String, headers: [String: String])
    }

    /// A tool's registry entry (`mcp_servers.<name>.tools.<skill id>`); nil members follow the defaults.
    public struct ToolSettings: Sendable, Equatable {
        public var enabled: Bool?
        /// Overrides the permission the server's annotations imply.
        public var permission: Permission?
        public var approval: ApprovalPolicy?
        public var timeout: Double?
        /// Calls per minute (`rate_limit_per_minute`, as for a plugin's skill); nil: no limit.
        public var rateLimitPerMinute: Int?
        public init(
            enabled: Bool? = nil, permission: Permission? = nil, approval: ApprovalPolicy? = nil, timeout: Double? = nil,
            rateLimitPerMinute: Int? = nil
        ) {
            self.enabled = enabled
            self.permission = permission
            self.approval = approval
            self.timeout = timeout
            self.rateLimitPerMinute = rateLimitPerMinute
        }
    }

    /// The server's name: the first part of its tools' skill ids (`NAME.tool`); a plugin id's grammar.
    public var name: String
    public var transport: Transport
    /// Variables the server gets: values, or `${HOST_VARIABLE}` references (the only form a secret may take).
    public var environment: [String: String]
    /// Paths beyond its installation and data folder, with their access.
    public var files: [SandboxPolicy.Rule]
    public var network: PluginCapabilities.Network
    /// Whether the server may start processes (a stdio server always runs as one).
    public var processes: Bool
    public var enabled: Bool
    /// The executable's SHA-256 pinned by `skillhost trust NAME`.
    public var sha256: String?
    /// For a Python entry point (a script run by its `#!` interpreter), the interpreter's SHA-256 pinned by
    /// `skillhost trust NAME` beside the script's (``sha256``).
    public var interpreterSHA256: String?
    /// Seconds a call may take unless its tool's entry says otherwise.
    public var timeout: Double
    /// Per tool, by skill id.
    public var tools: [String: ToolSettings]
    /// Whether its Skills extension skills whose `resources` is `"dynamic"` (no digests) may be used
    /// (`dynamic_skills: "allow"`; refused by default).
    public var dynamicSkills = false

    /// The timeout of a tool call unless the registry says otherwise.
    public static let defaultTimeout: Double = 60

    public init(
        name: String, transport: Transport, environment: [String: String] = [:], files: [SandboxPolicy.Rule] = [],
        network: PluginCapabilities.Network = .none, processes: Bool = true, enabled: Bool = true, timeout: Double = defaultTimeout
    ) {
        self.name = name
        self.transport = transport
        self.environment = environment
        self.files = files
        self.network = network
        self.processes = processes
        self.enabled = enabled
        self.timeout = timeout
        self.tools = [:]
    }

    /// The effective settings of the tool with skill id `skillID`.
    public func toolSettings(_ skillID: String) -> ToolSettings {
        let id = Identifier.normalize(skillID)
        return tools[id] ?? tools.first { Identifier.normalize($0.key) == id }?.value ?? ToolSettings()
    }
}

extension MCPServerEntry {
    /// Reads and checks an entry at JSON pointer `pointer`.
    /// - Throws: ``HostError`` (`registry`) naming the pointer, what is wrong and what to write instead.
    public init(name: String, json value: JSONValue, pointer: String) throws(HostError) {
        func fail(_ at: String, _ message: String) -> HostError { HostError(.registry, "registry \(pointer)\(at) \(message)") }
        guard case .object(let object) = value else {
            throw fail("", "must be an object like {\"command\": \"/usr/bin/mcp-server-time\", \"args\": []}, got \(value.typeName)")
        }
        let problem = Identifier.problem(with: name)
        guard problem.isEmpty else { throw fail("", "has the name \"\(name)\", which \(problem)") }
        let known: Set = [
            "command", "args", "url", "headers", "env", "files", "network", "processes", "enabled", "sha256", "interpreter_sha256",
            "timeout", "tools", "dynamic_skills",
        ]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw fail("/\(JSONPointer.escape(unknown))", "is not a member of an MCP server entry; use \(known.sorted().joined(separator: ", "))")
        }
        switch (object["command"], object["url"]) {
        case (let command?, nil):
            guard let text = command.stringValue, text.hasPrefix("/") else {
                throw fail("/command", "must be the absolute path of the server's program (skillhost add-mcp resolves it), got \(command.serialized())")
            }
            var arguments: [String] = []
            if let args = object["args"] {
                guard case .array(let items) = args, items.allSatisfy({ $0.stringValue != nil }) else {
                    throw fail("/args", "must be an array of strings, got \(args.serialized())")
                }
                arguments = items.compactMap(\.stringValue)
            }
            transport = .stdio(command: text, arguments: arguments)
        case (nil, let url?):
            guard let text = url.stringValue else { throw fail("/url", "must be a string, got \(url.serialized())") }
            if let problem = MCPSecrets.urlProblem(text) { throw fail("/url", problem) }
            let headers = try Self.strings(object["headers"], pointer + "/headers")
            for (field, value) in headers {
                if let problem = MCPSecrets.literalSecretProblem(name: field, value: value, kind: "header") {
                    throw fail("/headers/\(JSONPointer.escape(field))", problem)
                }
            }
            transport = .http(url: text, headers: headers)
        case (nil, nil):
            throw fail("", "needs \"command\" (a stdio server) or \"url\" (a Streamable HTTP server)")
        case (_?, _?):
            throw fail("", "has both \"command\" and \"url\"; keep one")
        }
        environment = try Self.strings(object["env"], pointer + "/env")
        for (variable, value) in environment {
            if let problem = PluginCapabilities.environmentNameProblem(variable) {
                throw fail("/env/\(JSONPointer.escape(variable))", problem)
            }
            if let problem = MCPSecrets.literalSecretProblem(name: variable, value: value, kind: "variable") {
                throw fail("/env/\(JSONPointer.escape(variable))", problem)
            }
        }
        files = []
        if let value = object["files"] {
            guard case .object(let paths) = value else {
                throw fail("/files", "must be an object of absolute paths to \"read\" or \"read-write\", got \(value.typeName)")
            }
            for (path, access) in paths {
                guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                    throw fail("/files/\(JSONPointer.escape(path))", "must be an absolute path without '..'")
                }
                guard let level = access.stringValue.flatMap(PluginCapabilities.Access.init(rawValue:)) else {
                    throw fail("/files/\(JSONPointer.escape(path))", "must be \"read\" or \"read-write\", got \(access.serialized())")
                }
                files.append(SandboxPolicy.Rule(path: path, access: level))
            }
        }
        network = .none
        if let value = object["network"] {
            switch value {
            case .string("none"): network = .none
            case .string("any"): network = .any
            case .array(let items):
                let ports = items.compactMap { $0.intValue.map(Int.init) }.filter { (1...65535).contains($0) }
                guard ports.count == items.count else {
                    throw fail("/network", "must be \"none\", \"any\" or an array of TCP ports (1-65535), got \(value.serialized())")
                }
                network = ports.isEmpty ? .none : .tcpConnect(ports)
            default:
                throw fail("/network", "must be \"none\", \"any\" or an array of TCP ports (1-65535), got \(value.serialized())")
            }
        }
        processes = try Self.bool(object["processes"], pointer + "/processes") ?? true
        enabled = try Self.bool(object["enabled"], pointer + "/enabled") ?? true
        for key in ["sha256", "interpreter_sha256"] {
            if let digest = object[key], !digest.isNull {
                guard let text = digest.stringValue, text.count == 64, text.allSatisfy(\.isHexDigit) else {
                    throw fail("/\(key)", "must be 64 hex digits (set it with 'skillhost trust \(name)'), got \(digest.serialized())")
                }
            }
        }
        sha256 = object["sha256"]?.stringValue?.lowercased()
        interpreterSHA256 = object["interpreter_sha256"]?.stringValue?.lowercased()
        timeout = Self.defaultTimeout
        if let value = object["timeout"] {
            if let fault = SkillDefaults.timeoutProblem(value) { throw fail("/timeout", fault) }
            timeout = value.doubleValue ?? Self.defaultTimeout
        }
        if let value = object["dynamic_skills"] {
            guard let word = value.stringValue, ["allow", "refuse"].contains(word) else {
                throw fail("/dynamic_skills", "must be \"allow\" or \"refuse\" (set it with 'skillhost set \(name) dynamic_skills allow'), got \(value.serialized())")
            }
            dynamicSkills = word == "allow"
        }
        tools = [:]
        if let value = object["tools"] {
            guard case .object(let entries) = value else {
                throw fail("/tools", "must be an object keyed by skill id (\"\(name).TOOL\"), got \(value.typeName)")
            }
            for (key, entry) in entries {
                let at = "/tools/\(JSONPointer.escape(key))"
                guard case .object(let settings) = entry else {
                    throw fail(at, "must be an object like {\"enabled\": false}, got \(entry.typeName)")
                }
                var tool = ToolSettings()
                tool.enabled = try Self.bool(settings["enabled"], pointer + at + "/enabled")
                if let permission = settings["permission"] {
                    guard let level = permission.stringValue.flatMap(Permission.init(rawValue:)) else {
                        throw fail(at + "/permission", "must be \"read\", \"write\" or \"dangerous\", got \(permission.serialized())")
                    }
                    tool.permission = level
                }
                if let approval = settings["approval"] {
                    guard let policy = approval.stringValue.flatMap(ApprovalPolicy.init(rawValue:)) else {
                        throw fail(at + "/approval", "must be \"ask\", \"allow\" or \"deny\", got \(approval.serialized())")
                    }
                    tool.approval = policy
                }
                if let timeout = settings["timeout"] {
                    if let fault = SkillDefaults.timeoutProblem(timeout) { throw fail(at + "/timeout", fault) }
                    tool.timeout = timeout.doubleValue
                }
                if let limit = settings["rate_limit_per_minute"] {
                    if let problem = RegistryCheck.rateLimitProblem(limit) { throw fail(at + "/rate_limit_per_minute", problem) }
                    tool.rateLimitPerMinute = limit.intValue.flatMap { $0 > 0 ? Int($0) : nil }
                }
                tools[Identifier.normalize(key)] = tool
            }
        }
        self.name = name
    }

    /// The entry as the registry stores it (the tools' entries are kept by the registry's own accessors).
    public var json: JSONObject {
        var object = JSONObject()
        switch transport {
        case .stdio(let command, let arguments):
            object["command"] = .string(command)
            object["args"] = .array(arguments.map(JSONValue.string))
        case .http(let url, let headers):
            object["url"] = .string(url)
            if !headers.isEmpty { object["headers"] = .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
        }
        if !environment.isEmpty {
            object["env"] = .object(JSONObject(environment.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        if !files.isEmpty { object["files"] = .object(JSONObject(files.map { ($0.path, .string($0.access.rawValue)) })) }
        switch network {
        case .none: break
        case .any: object["network"] = "any"
        case .tcpConnect(let ports): object["network"] = .array(ports.map { .int(Int64($0)) })
        }
        if !processes { object["processes"] = false }
        if !enabled { object["enabled"] = false }
        if timeout != Self.defaultTimeout { object["timeout"] = .double(timeout) }
        if dynamicSkills { object["dynamic_skills"] = "allow" }
        return object
    }

    private static func strings(_ value: JSONValue?, _ pointer: String) throws(HostError) -> [String: String] {
        guard let value else { return [:] }
        guard case .object(let object) = value, object.allSatisfy({ $0.value.stringValue != nil }) else {
            throw HostError(.registry, "registry \(pointer) must be an object of strings, got \(value.serialized())")
        }
        var result: [String: String] = [:]
        for (key, item) in object { result[key] = item.stringValue }
        return result
    }

    private static func bool(_ value: JSONValue?, _ pointer: String) throws(HostError) -> Bool? {
        guard let value else { return nil }
        guard let flag = value.boolValue else {
            throw HostError(.registry, "registry \(pointer) must be true or false, got \(value.serialized())")
        }
        return flag
    }
}
