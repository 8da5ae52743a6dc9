/// A schema that cannot be compiled: invalid against the meta-schema, an unresolvable `$ref`, a bad
/// `pattern`, or beyond the size limits.
public struct SchemaError: Error, Sendable, CustomStringConvertible, Equatable {
    /// JSON pointer of the fault inside the schema ("" is the root).
    public var pointer: String
    /// One line: what is wrong and how to fix it.
    public var message: String

    /// Creates an error at `pointer`.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// "invalid schema at `/properties/a/type`: ..." (`(root)` for the root).
    public var description: String {
        "invalid schema at \(ValidationError.displayLocation(pointer)): \(message)"
    }
}
