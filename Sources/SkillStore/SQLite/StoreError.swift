/// Why the history database could not be used. Every message says which file, what is wrong and what to
/// do, in one line. Stable kinds: append only.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable {
        /// The file cannot be opened or created (permissions, missing folder).
        case cannotOpen
        /// The file is not an SQLite database, or not a SkillHost one, or its pages are damaged.
        case corrupt
        /// The file was written by a newer SkillHost (a schema version this one does not know).
        case newerVersion
        /// Another process held the write lock longer than the busy timeout.
        case busy
        /// Any other SQLite failure.
        case sqlite
        /// A session id that does not exist.
        case notFound
    }

    /// What went wrong.
    public var kind: Kind
    /// One line: what, where and how to fix it.
    public var message: String
    /// The SQLite result code, when one caused it.
    public var code: Int32?

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
