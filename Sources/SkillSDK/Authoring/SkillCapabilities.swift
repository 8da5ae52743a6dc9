import SkillJSON

/// What a plugin (or one skill) may touch when the host runs it sandboxed: the manifest's `capabilities`
/// (docs/manifest.md, "Capabilities"). The data folder is always read-write; everything else is declared:
/// ```swift
/// SkillPlugin(id: "calendar", …).declaring(
///     .none.configuredPath("calendar_file", .readWrite).home("Documents", .read).network(.tcpConnect([443])))
/// ```
public struct SkillCapabilities: Sendable, Equatable {
    /// How a path may be used.
    public enum Access: String, Sendable {
        /// Open files for reading, list folders.
        case read
        /// Also create, write, rename and remove.
        case readWrite = "read-write"
    }

    /// Network access.
    public enum Network: Sendable, Equatable {
        /// No sockets (the default).
        case none
        /// TCP connections to these ports only.
        case tcpConnect([Int])
        /// Anything.
        case any
    }

    /// One filesystem entry as JSON (`root`, `key` or `path`, `access`).
    private var filesystem: [JSONValue] = []
    private var networkAccess: Network = .none
    private var mayStartProcesses = false
    private var variables: [String] = []

    /// The data folder only: no other path, no network, no processes.
    public static let none = SkillCapabilities()

    /// Adds a path relative to the user's home folder (no `..`), e.g. `home("Documents", .read)`.
    public func home(_ path: String, _ access: Access) -> SkillCapabilities {
        var copy = self
        copy.filesystem.append(["root": "home", "path": .string(path), "access": .string(access.rawValue)])
        return copy
    }

    /// Adds the path the user configured under registry `config.<key>` for this plugin.
    public func configuredPath(_ key: String, _ access: Access) -> SkillCapabilities {
        var copy = self
        copy.filesystem.append(["root": "config", "key": .string(key), "access": .string(access.rawValue)])
        return copy
    }

    /// Sets the network access.
    public func network(_ network: Network) -> SkillCapabilities {
        var copy = self
        copy.networkAccess = network
        return copy
    }

    /// Allows (or forbids) starting child processes.
    public func processes(_ allowed: Bool = true) -> SkillCapabilities {
        var copy = self
        copy.mayStartProcesses = allowed
        return copy
    }

    /// Asks for variables of the host's environment by name (e.g. `GITHUB_TOKEN`): a worker gets one only once
    /// the user grants it (`skillhost grant ID env:NAME`); without, a worker's environment holds none of the
    /// host's. Read the user's home with `WorkerHome.userHome`, not `HOME` (a worker's data folder).
    public func environment(_ names: String...) -> SkillCapabilities {
        var copy = self
        copy.variables += names.filter { !copy.variables.contains($0) }
        return copy
    }

    /// The manifest JSON.
    public var json: JSONValue {
        let network: JSONValue =
            switch networkAccess {
            case .none: "none"
            case .any: "any"
            case .tcpConnect(let ports): ["tcp_connect": .array(ports.map { .int(Int64($0)) })]
            }
        var object: JSONObject = ["filesystem": .array(filesystem), "network": network, "processes": .bool(mayStartProcesses)]
        if !variables.isEmpty { object["env"] = .array(variables.map(JSONValue.string)) }
        return .object(object)
    }
}
