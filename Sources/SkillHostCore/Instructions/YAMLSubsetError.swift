/// A YAML document outside the subset `YAMLSubsetParser` reads, or malformed: what and where.
public struct YAMLSubsetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var reason: String
    /// 1-based line in the file the text came from.
    public var line: Int
    /// 1-based column (Unicode scalars).
    public var column: Int

    /// Creates an error at `line`:`column`.
    public init(_ reason: String, line: Int, column: Int) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
