/// Why a turn ended without an answer. One line: what, where, how to fix.
public struct AgentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// The model could not be reached or answered wrongly (see ``providerError``).
        case model
        /// The list of skills could not be read.
        case skills
        /// The turn was cancelled.
        case cancelled
    }

    /// The kind of failure.
    public var kind: Kind
    /// One line: what, where, how to fix.
    public var message: String
    /// The provider's error, for `model` failures.
    public var providerError: ModelProviderError?

    /// An error of this kind.
    public init(_ kind: Kind, _ message: String, providerError: ModelProviderError? = nil) {
        self.kind = kind
        self.message = message
        self.providerError = providerError
    }

    public var description: String { message }
}
