/// Why bytes are not a TZif file (RFC 8536) or a TZ string is not a POSIX time-zone rule: what is wrong and
/// at which byte.
public struct TZifError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    public let message: String
    /// The byte offset in the file (or character offset in a TZ string) where it went wrong.
    public let offset: Int

    /// An error at `offset`.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (at byte \(offset))" }
}
