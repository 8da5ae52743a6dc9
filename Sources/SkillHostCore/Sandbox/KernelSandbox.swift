import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// What the running kernel can enforce (asked once per process).
public enum KernelSandbox {
    /// The Landlock ABI version; 0 when the kernel has no Landlock (or it is disabled).
    public static let landlockABI: Int = Int(skh_landlock_abi())

    /// The environment variable that turns the namespace layer off for a host (`off`): the sandbox is then
    /// Landlock and seccomp alone, as on a kernel that refuses user namespaces. For tests and for comparing
    /// the layers; nothing else needs it.
    public static let namespacesVariable = "SKILLHOST_SANDBOX_NAMESPACES"

    /// Whether sandboxed processes of this host try namespaces first (``namespacesVariable`` is not `off`).
    public static var namespacesWanted: Bool {
        getenv(namespacesVariable).map { String(cString: $0) != "off" } ?? true
    }

    /// What a sandboxed process of this host gets as its first layer: which namespaces the kernel lets it
    /// make, or why none (probed once, by a child that tries; ≈0.3 ms).
    public struct NamespaceSupport: Sendable, Equatable {
        /// User, PID, mount and IPC namespaces can be made.
        public var available: Bool
        /// A /proc of the PID namespace's own can be mounted (other processes are invisible).
        public var privateProc: Bool
        /// Why not, when not available (the kernel's refusal, or the host's ``namespacesVariable``).
        public var reason: String
    }

    /// The namespace layer on this machine for this host (see ``NamespaceSupport``).
    public static let namespaces: NamespaceSupport = {
        guard namespacesWanted else {
            return NamespaceSupport(available: false, privateProc: false, reason: "turned off by \(namespacesVariable)=off")
        }
        var error = [CChar](repeating: 0, count: 256)
        let bits = skh_namespaces_probe(&error, error.count)
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return NamespaceSupport(
            available: bits & Int32(SKH_NS_USER.rawValue) != 0, privateProc: bits & Int32(SKH_NS_PROC.rawValue) != 0,
            reason: reason.isEmpty ? "the kernel refused them" : reason)
    }()

    /// One line on what the kernel enforces, e.g. "Landlock ABI 7: files, TCP ports, signal and abstract-socket
    /// scoping; seccomp".
    public static var summary: String {
        switch landlockABI {
        case 0: return "no Landlock on this kernel: file and network rules cannot be enforced; seccomp only"
        case 1...3: return "Landlock ABI \(landlockABI): files (no network rules, no signal scoping); seccomp"
        case 4...5: return "Landlock ABI \(landlockABI): files, TCP ports (no signal scoping); seccomp"
        default: return "Landlock ABI \(landlockABI): files, TCP ports, signal and abstract-socket scoping; seccomp"
        }
    }

    /// The layers that hold on this machine, in one line for `inspect`: the namespaces (or why none), then
    /// Landlock and seccomp.
    public static var layers: String {
        let first = namespaces.available
            ? "namespaces (user, PID, mount, IPC\(namespaces.privateProc ? "; a /proc of its own" : "; the host's /proc"))"
            : "no namespaces (\(namespaces.reason))"
        let landlock = landlockABI > 0 ? "Landlock ABI \(landlockABI)" : "no Landlock"
        return "\(first), \(landlock), seccomp, no capabilities"
    }

    /// What of `capabilities` the kernel can hold a plugin to, in words (for `inspect`).
    public static func enforcement(of capabilities: PluginCapabilities) -> String {
        var parts: [String] = []
        parts.append(landlockABI >= 1 ? "files enforced" : "files NOT enforced (no Landlock)")
        switch capabilities.network {
        case .any: parts.append("network unrestricted")
        case .none: parts.append("no sockets (seccomp)")
        case .tcpConnect:
            parts.append(landlockABI >= 4 ? "TCP ports enforced, no UDP" : "TCP ports NOT enforced (Landlock < 4), no UDP")
        }
        parts.append(capabilities.processes ? "may start processes" : "no new processes (seccomp)")
        parts.append(landlockABI >= 6 ? "signals scoped" : "signals NOT scoped (Landlock < 6)")
        return parts.joined(separator: ", ")
    }
}
