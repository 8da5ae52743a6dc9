/// Whether a plugin's workers run sandboxed (registry `sandbox`, per plugin or in `defaults`).
public enum SandboxMode: String, Sendable, CaseIterable {
    /// The sandbox must be entered in full (Landlock, seccomp, no_new_privs); a plugin that cannot be
    /// sandboxed does not run. The default where the kernel offers Landlock.
    case required
    /// Enter what the kernel offers; without Landlock only seccomp and no_new_privs apply. The default on a
    /// kernel without Landlock (the host says so once, and `list` shows it).
    case bestEffort = "best-effort"
    /// No sandbox: the user's explicit choice, shown in `list`.
    case off

    /// The mode used when the registry says nothing: `required` where the kernel has Landlock.
    public static var automatic: SandboxMode { KernelSandbox.landlockABI > 0 ? .required : .bestEffort }
}
