import SkillJSON

/// A reference to a value of the run: the input (`inputs.zone`) or a step's output
/// (`steps.cal.output.events`, `steps.cal.output/events/0`). What follows `inputs` or `output` is a path,
/// dotted (`.events.0`) or a JSON pointer (`/events/0`); either becomes ``pointer``.
public struct WorkflowReference: Sendable, Equatable {
    /// The step whose output is meant; nil: the run's input.
    public var stepID: String?
    /// The JSON pointer under the input or the output ("" for the whole value).
    public var pointer: String
    /// The expression as written, without `${{ }}`.
    public var expression: String

    /// Reads `expression` (`inputs…` or `steps.ID.output…`).
    public init(parsing expression: String) throws(WorkflowSyntaxError) {
        let text = expression.trimmingCharacters(in: " \t")
        self.expression = text
        var rest: Substring
        if text == "inputs" || text.hasPrefix("inputs.") || text.hasPrefix("inputs/") {
            stepID = nil
            rest = text.dropFirst("inputs".count)
        } else if text.hasPrefix("steps.") {
            let afterSteps = text.dropFirst("steps.".count)
            guard let dot = afterSteps.firstIndex(of: "."), !afterSteps[..<dot].isEmpty else {
                throw WorkflowSyntaxError("'\(text)' names no output; write steps.ID.output (and a path under it)")
            }
            stepID = String(afterSteps[..<dot])
            let field = afterSteps[afterSteps.index(after: dot)...]
            guard field == "output" || field.hasPrefix("output.") || field.hasPrefix("output/") else {
                throw WorkflowSyntaxError("'\(text)': a step offers only its output; write steps.\(stepID ?? "").output…")
            }
            rest = field.dropFirst("output".count)
        } else {
            throw WorkflowSyntaxError("'\(text)' is not a reference; write inputs.NAME or steps.ID.output.PATH")
        }
        if rest.isEmpty {
            pointer = ""
        } else if rest.first == "/" {
            guard JSONPointer.tokens(String(rest)) != nil else {
                throw WorkflowSyntaxError("'\(rest)' in '\(text)' is not a JSON pointer; escape '~' as ~0 and '/' as ~1")
            }
            pointer = String(rest)
        } else {
            let names = rest.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
            guard !names.contains(where: \.isEmpty) else {
                throw WorkflowSyntaxError("'\(text)' has an empty path segment; write names between single dots")
            }
            pointer = names.map { "/" + JSONPointer.escape(String($0)) }.joined()
        }
    }

    /// The referenced value in `root` (the input, or the step's output), or nil when nothing is there.
    public func value(in root: JSONValue) -> JSONValue? {
        pointer.isEmpty ? root : root.value(atPointer: pointer)
    }

    /// `${{ expression }}`.
    public var text: String { "${{ \(expression) }}" }
}

/// A malformed reference, condition or template: what and how to fix it.
public struct WorkflowSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension StringProtocol {
    /// Without leading and trailing characters in `set`.
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, set.unicodeScalars.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.unicodeScalars.contains(last) { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
