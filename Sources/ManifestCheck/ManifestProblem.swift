import SkillJSON

/// One thing wrong with a manifest: where (JSON pointer, skill id) and what, with the fix.
public struct ManifestProblem: Sendable, Equatable, CustomStringConvertible {
    /// RFC 6901 pointer into the manifest ("" for the whole document).
    public var pointer: String
    /// The skill concerned, when the problem is inside one.
    public var skillID: String?
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates a problem.
    public init(pointer: String, skillID: String? = nil, message: String) {
        self.pointer = pointer
        self.skillID = skillID
        self.message = message
    }

    /// "manifest /skills/0/permission (skill clock.now): must be one of …".
    public var description: String {
        let place = pointer.isEmpty ? "manifest" : "manifest \(pointer)"
        let skill = skillID.map { " (skill \($0))" } ?? ""
        return "\(place)\(skill): \(message)"
    }
}

/// A manifest that failed its checks: the file and every problem found.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The plugin file the manifest came from.
    public var file: String
    /// Every problem, in document order.
    public var problems: [ManifestProblem]
    /// The advice the checker could still give from what it read (so `validate` shows it for an invalid
    /// manifest too).
    public var advice: [ManifestProblem]

    /// Creates an error for `file`.
    public init(file: String, problems: [ManifestProblem], advice: [ManifestProblem] = []) {
        self.file = file
        self.problems = problems
        self.advice = advice
    }

    /// All problems on one line: "FILE: manifest /x: …; manifest /y: …".
    public var description: String {
        "\(file): " + problems.map(\.description).joined(separator: "; ")
    }
}
