/// A problem in an iCalendar file: where it is (line and column of the unfolded content line, 1-based),
/// what is wrong and how to fix it, worded to be shown in one line.
public struct ICalendarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The physical line where the content line starts (1-based; 0 when the problem has no place).
    public var line: Int
    /// The column inside the unfolded content line (1-based; 0 when the problem has no place).
    public var column: Int
    /// What is wrong.
    public var message: String
    /// How to fix it.
    public var remedy: String

    /// Creates an error.
    public init(line: Int, column: Int, message: String, remedy: String) {
        self.line = line
        self.column = column
        self.message = message
        self.remedy = remedy
    }

    /// `line 12:5: <message>; <remedy>`.
    public var description: String {
        line > 0 ? "line \(line):\(column): \(message); \(remedy)" : "\(message); \(remedy)"
    }

    /// The error as a note that what it names was skipped (`skipped DUE value … is not a date…`).
    var skipping: ICalendarError {
        ICalendarError(line: line, column: column, message: "skipped " + message, remedy: remedy)
    }
}
