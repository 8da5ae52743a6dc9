/// Where the host library sends lines meant for a person: warnings and notices such as "plugin X is not
/// trusted". The library never prints; whoever makes the host (the CLI, a test, the MCP server) decides where
/// the lines go, as swift-format's finding consumer does.
public struct DiagnosticSink: Sendable {
    /// How much a line matters.
    public enum Level: String, Sendable {
        /// Worth knowing; nothing is wrong (e.g. a capability the kernel cannot enforce).
        case notice
        /// Something the user should act on (e.g. an untrusted plugin ran).
        case warning
    }

    private let consume: @Sendable (Level, String) -> Void

    /// A sink that hands each line to `consume`.
    public init(_ consume: @escaping @Sendable (Level, String) -> Void) {
        self.consume = consume
    }

    /// Sends one line (no newline) at `level`.
    public func emit(_ level: Level, _ line: String) { consume(level, line) }

    /// Sends one warning line.
    public func warning(_ line: String) { consume(.warning, line) }

    /// Drops every line (the default for hosts made by tests and libraries).
    public static let discard = DiagnosticSink { _, _ in }
}
