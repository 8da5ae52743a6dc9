/// What a skill may do to the user's world, from the manifest's `"permission"`: `read` runs without asking;
/// `write` and `dangerous` need the user's approval unless the registry says `allow`.
public enum Permission: String, Sendable, CaseIterable, Codable {
    /// Only reads (the clock, statistics of a text). Runs without asking.
    case read
    /// Changes user data that can be changed back (creates a reminder, writes a file).
    case write
    /// Changes that are hard to undo or reach outside (deletes data, sends mail, runs commands).
    case dangerous

    /// Whether calls need approval by default.
    public var needsApproval: Bool { self != .read }

    /// The values a manifest may write, for messages: `read, write, dangerous`.
    public static let spelledOut = allCases.map(\.rawValue).joined(separator: ", ")
}
