import CSandbox

/// What the running kernel can enforce (asked once per process).
public enum KernelSandbox {
    /// The Landlock ABI version; 0 when the kernel has no Landlock (or it is disabled).
    public static let landlockABI: Int = Int(skh_landlock_abi())

    /// One line on what the kernel enforces, e.g. "Landlock ABI 7: files, TCP ports, signal and socket
    /// scoping; seccomp".
    public static var summary: String {
        switch landlockABI {
        case 0: return "no Landlock on this kernel: file and network rules cannot be enforced; seccomp only"
        case 1...3: return "Landlock ABI \(landlockABI): files (no network rules, no signal scoping); seccomp"
        case 4...5: return "Landlock ABI \(landlockABI): files, TCP ports (no signal scoping); seccomp"
        default: return "Landlock ABI \(landlockABI): files, TCP ports, signal and abstract-socket scoping; seccomp"
        }
    }

    /// What of `capabilities` the kernel can hold a plugin to, in words (for `inspect`).
    public static func enforcement(of capabilities: PluginCapabilities) -> String {
        var parts: [String] = []
        parts.append(landlockABI >= 1 ? "files enforced" : "files NOT enforced (no Landlock)")
        switch capabilities.network {
        case .any: parts.append("network unrestricted")
        case .none: parts.append("no sockets (seccomp)")
        case .tcpConnect: parts.append(landlockABI >= 4 ? "TCP ports enforced" : "TCP ports NOT enforced (Landlock < 4)")
        }
        parts.append(capabilities.processes ? "may start processes" : "no new processes (seccomp)")
        parts.append(landlockABI >= 6 ? "signals scoped" : "signals NOT scoped (Landlock < 6)")
        return parts.joined(separator: ", ")
    }
}
