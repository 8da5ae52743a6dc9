/// A failure a skill reports to the host: a status plus a one-line message, and where it helps the argument
/// that caused it (a JSON pointer) and what the user can do about it.
///
/// Throw it from ``Skill/execute(_:context:)``:
/// ```swift
/// throw SkillError.invalidArguments(field: "/timezone", message: "unknown time zone \"Mars/Olympus\"")
/// throw SkillError.failed(message: "the calendar file is locked", remedy: "close the other editor and retry")
/// ```
/// Any other error a skill throws is reported as ``Kind/failed`` with its description.
public struct SkillError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the host should treat the failure; each kind maps to one ABI status code.
    public enum Kind: String, Sendable, CaseIterable {
        /// The arguments do not fit (`SKILL_STATUS_INVALID_ARGUMENTS`); ``SkillError/field`` says which.
        case invalidArguments
        /// The skill ran and failed (`SKILL_STATUS_FAILED`).
        case failed
        /// The OS or a policy refused an operation (`SKILL_STATUS_PERMISSION_DENIED`).
        case permissionDenied
        /// The skill saw the cancellation flag and stopped (`SKILL_STATUS_CANCELLED`).
        case cancelled
        /// The skill passed its deadline and stopped (`SKILL_STATUS_TIMEOUT`).
        case timedOut
    }

    /// How the host should treat the failure.
    public var kind: Kind
    /// One line: what went wrong.
    public var message: String
    /// JSON pointer of the argument at fault ("/time", "" for the whole object), when there is one.
    public var field: String?
    /// What the user can do about it, when there is something.
    public var remedy: String?

    /// A failure of any kind; prefer the static constructors.
    public init(_ kind: Kind, message: String, field: String? = nil, remedy: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
        self.remedy = remedy
    }

    /// The argument at `field` (a JSON pointer such as "/time") does not fit, e.g. a date in the past.
    public static func invalidArguments(field: String, message: String, remedy: String? = nil) -> SkillError {
        SkillError(.invalidArguments, message: message, field: field, remedy: remedy)
    }

    /// The skill ran and failed.
    public static func failed(message: String, remedy: String? = nil) -> SkillError {
        SkillError(.failed, message: message, remedy: remedy)
    }

    /// The OS or a policy refused an operation; say in `remedy` how to grant it.
    public static func permissionDenied(message: String, remedy: String? = nil) -> SkillError {
        SkillError(.permissionDenied, message: message, remedy: remedy)
    }

    /// The skill stopped because the host cancelled the call.
    public static let cancelled = SkillError(.cancelled, message: "the call was cancelled")

    /// The skill stopped because the call passed its deadline.
    public static let timedOut = SkillError(.timedOut, message: "the call passed its deadline")

    public var description: String {
        var text = message
        if let field, !field.isEmpty { text += " (at \(field))" }
        if let remedy { text += "; \(remedy)" }
        return text
    }
}
