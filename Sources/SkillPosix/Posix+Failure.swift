#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// A system call that failed: which call, on what, and the `errno` it set. The targets that have an error
    /// type of their own (`HostError` in SkillHostCore, `CalendarFileError`, the history's `StoreError`)
    /// turn it into theirs; its ``description`` is the one wording, "rename /a/.b.tmp to /a/b: No space left
    /// on device".
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The call, as its manual page names it ("open", "fsync", "rename", "flock", …).
        package var call: String
        /// What it was called on: a path, or "SOURCE to TARGET" for a rename.
        package var path: String
        /// The `errno` value.
        package var code: Int32

        /// A failure of `call` on `path`; `code` defaults to the current `errno`.
        package init(_ call: String, path: String, code: Int32 = errno) {
            self.call = call
            self.path = path
            self.code = code
        }

        /// The text of ``code``, e.g. "No such file or directory".
        package var reason: String { Posix.describe(errno: code) }

        /// "CALL PATH: REASON".
        package var description: String { "\(call) \(path): \(reason)" }
    }
}
