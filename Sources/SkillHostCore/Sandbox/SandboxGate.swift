import Synchronization

/// The pre-call check for the sandbox (a ``CallGate``): on a kernel without Landlock it says so once, in
/// one line, through `warn` (nothing silently degrades), and it refuses a plugin whose registry `sandbox`
/// is `required` there, with the remedy. Thread-safe.
public final class SandboxGate: CallGate {
    private let landlockABI: Int
    private let warn: @Sendable (String) -> Void
    private let warned = Mutex(false)

    /// - Parameters:
    ///   - landlockABI: what the kernel offers (tests pass 0 to play a kernel without Landlock).
    ///   - warn: receives the one-line notice (the library never prints: pass a ``DiagnosticSink``'s `warning`).
    public init(landlockABI: Int = KernelSandbox.landlockABI, warn: @escaping @Sendable (String) -> Void) {
        self.landlockABI = landlockABI
        self.warn = warn
    }

    /// The one line said on a kernel without Landlock.
    public static let noLandlockNotice =
        "warning: this kernel has no Landlock: sandboxed plugins run with seccomp and no_new_privs only; their file and network rules are not enforced (docs/isolation.md)"

    public func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) {
        guard landlockABI == 0, plugin.settings.isolation == .process else { return }
        let mode = plugin.settings.sandbox ?? .bestEffort
        guard mode != .off else { return }
        if mode == .required {
            throw HostError(
                .denied,
                "plugin \(plugin.id) must run sandboxed (registry sandbox \"required\") but this kernel has no Landlock; "
                    + "set its registry \"sandbox\" to \"best-effort\" to run it with seccomp only",
                skillID: skill.id, pluginID: plugin.id)
        }
        if warned.withLock({ old in defer { old = true }; return !old }) { warn(Self.noLandlockNotice) }
    }
}
