/// Process exit codes of `skillhost`, one per kind of failure (documented in docs/cli.md).
/// Scripts rely on these numbers: never renumber, only append.
enum ExitCode {
    static let success: Int32 = 0
    /// Generic failure; also "instance invalid" for `schema validate`.
    static let failure: Int32 = 1
    /// Wrong command-line words (unknown command, option, missing argument).
    static let usage: Int32 = 2
    /// No plugin or skill with that id; no such file.
    static let notFound: Int32 = 3
    /// The plugin or skill is disabled in the registry.
    static let disabled: Int32 = 4
    /// The call's arguments do not match the skill's parameter schema.
    static let invalidArguments: Int32 = 5
    /// The skill ran and reported a failure.
    static let skillFailed: Int32 = 6
    /// The skill exceeded its timeout.
    static let timeout: Int32 = 7
    /// The plugin crashed (signal, exit) or is marked broken.
    static let pluginCrashed: Int32 = 8
    /// The plugin file or manifest is invalid (bad ELF, ABI mismatch, manifest errors).
    static let invalidPlugin: Int32 = 9
    /// The user or policy denied the call (approval refused, untrusted plugin, unsafe permissions).
    static let denied: Int32 = 10
    /// The skill's rate limit is exceeded.
    static let rateLimited: Int32 = 11
    /// The registry file is malformed or could not be written.
    static let registryError: Int32 = 12
    /// Interrupted by the user (Ctrl-C, SIGINT), by the shell convention 128 + 2.
    static let interrupted: Int32 = 130
}
