import SkillJSON

/// What a plugin may touch in its sandbox (manifest `capabilities`, docs/manifest.md "Capabilities").
///
/// Absent = ``minimal``: the plugin's data folder (always read-write), no network, no child processes.
/// Each capability also has a one-word name (``Capability``) used by `skillhost grant` and the registry.
public struct PluginCapabilities: Sendable, Equatable, Hashable {
    /// Filesystem paths beyond the data folder.
    public var filesystem: [PathGrant]
    /// Network access.
    public var network: Network
    /// Whether the plugin may start child processes.
    public var processes: Bool
    /// Names of environment variables of the host the plugin asks for (manifest `env`); a worker gets one only
    /// once the user granted it (`skillhost grant ID env:NAME`). Without any, a worker's environment holds the
    /// locale, the zone and its own folders, never the host's secrets.
    public var environment: [String]

    /// The data folder only: no other path, no network, no processes, no variables.
    public static let minimal = PluginCapabilities()

    /// Creates a capability set; the defaults are ``minimal``.
    public init(filesystem: [PathGrant] = [], network: Network = .none, processes: Bool = false, environment: [String] = []) {
        self.filesystem = filesystem
        self.network = network
        self.processes = processes
        self.environment = environment
    }

    /// Whether `name` may be asked for as an environment variable (``environment``, `env:NAME`): a C
    /// identifier, and not one the host sets for every worker or the dynamic loader reads. Nil when it may;
    /// otherwise why not, ending with the fix.
    public static func environmentNameProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        let identifier = !bytes.isEmpty && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0])
            && bytes.allSatisfy { $0 == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard identifier else {
            return "\"\(name)\" is not an environment variable name; use letters, digits and _ (not starting with a digit), e.g. GITHUB_TOKEN"
        }
        if ["HOME", "TMPDIR", "PATH"].contains(name) || name.hasPrefix("SKILLHOST_") || name.hasPrefix("LD_") {
            return "\(name) cannot be asked for: the host sets it for every worker (HOME and TMPDIR are the data folder, SKILLHOST_USER_HOME the user's home) or the loader reads it; ask for the variable your skill itself reads"
        }
        return nil
    }

    /// The symbolic folder a path is relative to.
    public enum Root: String, Sendable, CaseIterable, Hashable {
        /// The plugin's data folder, `$XDG_DATA_HOME/skillhost/data/<plugin id>/`.
        case data
        /// The path in registry `config.<key>` of this plugin (`~/` expands to the home folder).
        case config
        /// The user's home folder; `path` is relative to it.
        case home
    }

    /// How a path may be used.
    public enum Access: String, Sendable, CaseIterable, Hashable {
        /// Open files for reading, list folders.
        case read
        /// Also create, write, rename and remove.
        case readWrite = "read-write"
    }

    /// One filesystem entry: a root, the key or relative path that picks the place, and the access.
    public struct PathGrant: Sendable, Equatable, Hashable {
        /// The symbolic root.
        public var root: Root
        /// For ``Root/config``: the configuration key holding the path.
        public var key: String?
        /// For ``Root/home``: the path relative to the home folder (no `..`).
        public var path: String?
        /// The access granted.
        public var access: Access

        /// Creates an entry; give `key` for `config` and `path` for `home`.
        public init(root: Root, key: String? = nil, path: String? = nil, access: Access) {
            self.root = root
            self.key = key
            self.path = path
            self.access = access
        }

        /// Whether this entry allows at least what `other` allows.
        public func covers(_ other: PathGrant) -> Bool {
            root == other.root && key == other.key && path == other.path
                && (access == .readWrite || other.access == .read)
        }
    }

    /// Network access.
    public enum Network: Sendable, Equatable, Hashable {
        /// No sockets (the default).
        case none
        /// TCP connections to these ports only (no listening).
        case tcpConnect([Int])
        /// Anything.
        case any

        /// Whether this allows at least what `other` allows.
        public func covers(_ other: Network) -> Bool {
            switch (self, other) {
            case (.any, _), (_, .none): return true
            case (.tcpConnect(let mine), .tcpConnect(let theirs)): return Set(theirs).isSubset(of: Set(mine))
            default: return false
            }
        }
    }

    /// Whether this set allows at least everything `other` allows.
    public func covers(_ other: PluginCapabilities) -> Bool {
        (processes || !other.processes) && network.covers(other.network)
            && Set(other.environment).isSubset(of: Set(environment))
            && other.filesystem.allSatisfy { wanted in
                wanted.root == .data || filesystem.contains { $0.covers(wanted) }
            }
    }

    /// What both sets allow (the registry narrows a manifest this way).
    public func intersection(_ other: PluginCapabilities) -> PluginCapabilities {
        var result = PluginCapabilities(
            processes: processes && other.processes, environment: environment.filter(other.environment.contains))
        switch (network, other.network) {
        case (.any, let narrower), (let narrower, .any): result.network = narrower
        case (.tcpConnect(let mine), .tcpConnect(let theirs)):
            let common = mine.filter(theirs.contains)
            result.network = common.isEmpty ? .none : .tcpConnect(common)
        default: result.network = .none
        }
        for grant in filesystem {
            if other.filesystem.contains(where: { $0.covers(grant) }) {
                result.filesystem.append(grant)
            } else if grant.access == .readWrite,
                other.filesystem.contains(where: { $0.covers(PathGrant(root: grant.root, key: grant.key, path: grant.path, access: .read)) })
            {
                result.filesystem.append(PathGrant(root: grant.root, key: grant.key, path: grant.path, access: .read))
            }
        }
        return result
    }

    /// This set with `capabilities` added (what `skillhost grant` records).
    public func adding(_ capabilities: [Capability]) -> PluginCapabilities {
        var result = self
        for capability in capabilities {
            switch capability {
            case .processes: result.processes = true
            case .networkAny: result.network = .any
            case .tcpConnect(let port):
                switch result.network {
                case .none: result.network = .tcpConnect([port])
                case .tcpConnect(let ports) where !ports.contains(port): result.network = .tcpConnect(ports + [port])
                default: break
                }
            case .path(let grant):
                if !result.filesystem.contains(where: { $0.covers(grant) }) {
                    result.filesystem.removeAll { grant.covers($0) }
                    result.filesystem.append(grant)
                }
            case .environment(let name):
                if !result.environment.contains(name) { result.environment.append(name) }
            }
        }
        return result
    }

    /// The set as single capabilities (the words `inspect` shows and `grant` takes).
    public var capabilities: [Capability] {
        var result = filesystem.filter { $0.root != .data }.map(Capability.path)
        switch network {
        case .none: break
        case .any: result.append(.networkAny)
        case .tcpConnect(let ports): result += ports.map(Capability.tcpConnect)
        }
        if processes { result.append(.processes) }
        result += environment.map(Capability.environment)
        return result
    }

    /// The manifest JSON of this set (the agreed shape).
    public var json: JSONValue {
        var object: JSONObject = [:]
        object["filesystem"] = .array(filesystem.map { grant in
            var entry: JSONObject = ["root": .string(grant.root.rawValue)]
            if let key = grant.key { entry["key"] = .string(key) }
            if let path = grant.path { entry["path"] = .string(path) }
            entry["access"] = .string(grant.access.rawValue)
            return .object(entry)
        })
        switch network {
        case .none: object["network"] = "none"
        case .any: object["network"] = "any"
        case .tcpConnect(let ports): object["network"] = ["tcp_connect": .array(ports.map { .int(Int64($0)) })]
        }
        object["processes"] = .bool(processes)
        if !environment.isEmpty { object["env"] = .array(environment.map(JSONValue.string)) }
        return .object(object)
    }
}

/// One capability as a word: `processes`, `network:any`, `network:tcp:443`, `home:Documents:read`,
/// `config:calendar_file:read-write`, `env:GITHUB_TOKEN`. `skillhost grant ID CAPABILITY` takes these words.
public enum Capability: Sendable, Hashable, CustomStringConvertible {
    /// May start child processes.
    case processes
    /// Any network access.
    case networkAny
    /// TCP connect to one port.
    case tcpConnect(Int)
    /// A filesystem entry.
    case path(PluginCapabilities.PathGrant)
    /// One environment variable of the host, by name.
    case environment(String)

    /// Parses a capability word; nil when it is not one (see ``syntax``).
    public init?(_ word: String) {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "processes" where parts.count == 1: self = .processes
        case "network" where parts.count == 2 && parts[1] == "any": self = .networkAny
        case "network" where parts.count == 3 && parts[1] == "tcp":
            guard let port = Int(parts[2]), (1...65535).contains(port) else { return nil }
            self = .tcpConnect(port)
        case "env" where parts.count == 2:
            guard PluginCapabilities.environmentNameProblem(parts[1]) == nil else { return nil }
            self = .environment(parts[1])
        case "home" where parts.count == 3, "config" where parts.count == 3:
            guard let access = PluginCapabilities.Access(rawValue: parts[2]), !parts[1].isEmpty else { return nil }
            if parts[0] == "home" {
                guard PluginCapabilities.isPlainRelativePath(parts[1]) else { return nil }
                self = .path(.init(root: .home, path: parts[1], access: access))
            } else {
                self = .path(.init(root: .config, key: parts[1], access: access))
            }
        default: return nil
        }
    }

    /// The accepted forms, for error messages.
    public static let syntax =
        "processes, network:any, network:tcp:PORT, home:PATH:read|read-write, config:KEY:read|read-write, env:NAME"

    public var description: String {
        switch self {
        case .processes: "processes"
        case .networkAny: "network:any"
        case .tcpConnect(let port): "network:tcp:\(port)"
        case .path(let grant):
            "\(grant.root.rawValue):\(grant.key ?? grant.path ?? ""):\(grant.access.rawValue)"
        case .environment(let name): "env:\(name)"
        }
    }
}

extension PluginCapabilities {
    /// Whether `path` is relative, non-empty and free of `..` segments.
    static func isPlainRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
    }
}
