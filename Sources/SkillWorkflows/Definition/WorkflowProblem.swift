/// One fault of a workflow: where (file, line, column; 0 when unknown) and what, with the fix, on one line.
public struct WorkflowProblem: Sendable, Equatable, CustomStringConvertible, Error {
    public var file: String
    public var position: SourcePosition
    /// What is wrong and how to fix it.
    public var message: String

    public init(file: String, position: SourcePosition, _ message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, or `FILE: message` when the fault has no place in the file (it cannot be read).
    public var description: String {
        "\(file.isEmpty ? "workflow" : file)\(position.line > 0 ? ":\(position.line):\(position.column)" : ""): \(message)"
    }
}
