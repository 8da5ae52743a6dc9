/// The sandbox one worker enters, resolved on the host from the manifest's capabilities, the registry
/// (narrowing, grants, `sandbox` mode, configuration paths) and the host's folders; handed to the worker as
/// command-line words (``workerArguments``) and entered before the plugin is loaded (``WorkerSandbox``).
public struct SandboxPolicy: Sendable, Equatable {
    /// One path rule.
    public struct Rule: Sendable, Equatable {
        /// Absolute path (a folder covers everything beneath it).
        public var path: String
        /// What may be done there.
        public var access: PluginCapabilities.Access
        public init(path: String, access: PluginCapabilities.Access) {
            self.path = path
            self.access = access
        }
    }

    /// `required` or `best-effort` (`off` never reaches a worker).
    public var mode: SandboxMode
    /// Paths the plugin may use beyond the system's libraries and the runtime (data folder first).
    public var rules: [Rule]
    /// Network access.
    public var network: PluginCapabilities.Network
    /// Whether the plugin may start processes.
    public var processes: Bool
    /// Whether the process first moves into namespaces of its own (user, PID, mount, IPC) where the kernel
    /// lets it: the first layer, under Landlock and seccomp (docs/isolation.md, "Two layers"). On by default;
    /// ``KernelSandbox/namespacesWanted`` turns it off for a whole host.
    public var namespaces: Bool

    public init(
        mode: SandboxMode, rules: [Rule], network: PluginCapabilities.Network = .none, processes: Bool = false,
        namespaces: Bool = KernelSandbox.namespacesWanted
    ) {
        self.mode = mode
        self.rules = rules
        self.network = network
        self.processes = processes
        self.namespaces = namespaces
    }

    /// The policy as words after `skillhost __worker FILE`:
    /// `--sandbox MODE [--sb-read PATH]… [--sb-write PATH]… --sb-net none|any|P,P --sb-procs 0|1 --sb-ns 0|1`.
    public var workerArguments: [String] {
        var words = ["--sandbox", mode.rawValue]
        for rule in rules { words += [rule.access == .readWrite ? "--sb-write" : "--sb-read", rule.path] }
        switch network {
        case .none: words += ["--sb-net", "none"]
        case .any: words += ["--sb-net", "any"]
        case .tcpConnect(let ports): words += ["--sb-net", ports.map(String.init).joined(separator: ",")]
        }
        words += ["--sb-procs", processes ? "1" : "0", "--sb-ns", namespaces ? "1" : "0"]
        return words
    }

    /// Parses what ``workerArguments`` wrote; other words are left in `rest`. Nil policy when there was no
    /// `--sandbox` (an unsandboxed worker).
    public static func parse(workerArguments words: [String]) -> (policy: SandboxPolicy?, rest: [String]) {
        var policy: SandboxPolicy?
        var rest: [String] = []
        var index = 0
        func ensure() -> SandboxPolicy { policy ?? SandboxPolicy(mode: .required, rules: []) }
        while index < words.count {
            let word = words[index]
            let value = index + 1 < words.count ? words[index + 1] : nil
            guard let value, ["--sandbox", "--sb-read", "--sb-write", "--sb-net", "--sb-procs", "--sb-ns"].contains(word) else {
                rest.append(word)
                index += 1
                continue
            }
            var current = ensure()
            switch word {
            case "--sandbox": current.mode = SandboxMode(rawValue: value) ?? .required
            case "--sb-read": current.rules.append(Rule(path: value, access: .read))
            case "--sb-write": current.rules.append(Rule(path: value, access: .readWrite))
            case "--sb-net":
                switch value {
                case "none": current.network = .none
                case "any": current.network = .any
                default:
                    let ports = value.split(separator: ",").compactMap { Int($0) }
                    current.network = ports.isEmpty ? .none : .tcpConnect(ports)
                }
            case "--sb-ns": current.namespaces = value == "1"
            default: current.processes = value == "1"
            }
            policy = current
            index += 2
        }
        return (policy, rest)
    }
}
