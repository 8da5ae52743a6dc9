import SkillJSON

/// Every failure the host library reports: a kind (which the CLI maps to an exit code and the agent to a
/// tool result) and a one-line message that says what, where and how to fix it.
public struct HostError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, coarsely. Stable: the CLI's exit codes and the agent's tool results depend on it.
    public enum Kind: String, Sendable, CaseIterable {
        /// No plugin, skill or file with that id or path.
        case notFound
        /// The plugin or skill is disabled in the registry.
        case disabled
        /// The arguments do not match the skill's parameter schema.
        case invalidArguments
        /// The skill ran and reported a failure.
        case skillFailed
        /// The skill returned a result that does not match the output schema its manifest declares.
        case invalidResult
        /// The skill exceeded its timeout.
        case timeout
        /// The plugin crashed (signal, exit), or is marked broken after repeated crashes.
        case pluginCrashed
        /// The plugin file or its manifest is invalid (ELF, ABI, manifest).
        case invalidPlugin
        /// Approval refused, untrusted plugin, unsafe file permissions, permission denied by the OS.
        case denied
        /// The skill's rate limit is exceeded.
        case rateLimited
        /// The registry file is malformed or could not be written.
        case registry
        /// The call was cancelled.
        case cancelled
        /// Reading or writing a file or pipe failed.
        case io
    }

    /// What went wrong, coarsely.
    public var kind: Kind
    /// One line: what, where (file, skill id, JSON pointer) and how to fix it.
    public var message: String
    /// The skill concerned, when there is one.
    public var skillID: String?
    /// The plugin concerned, when there is one.
    public var pluginID: String?
    /// Structured detail: the plugin's error object, or the list of validation errors.
    public var details: JSONValue?

    /// Creates an error of `kind` with a one-line `message`.
    public init(
        _ kind: Kind, _ message: String, skillID: String? = nil, pluginID: String? = nil, details: JSONValue? = nil
    ) {
        self.kind = kind
        self.message = message
        self.skillID = skillID
        self.pluginID = pluginID
        self.details = details
    }

    public var description: String { message }
}
