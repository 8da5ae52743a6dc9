/// One reason an instance does not match a schema.
///
/// ``description`` reads "`/time`: expected a string matching …, got 1000"; the root location is written
/// `(root)`, e.g. "(root): missing required property \"time\"".
public struct ValidationError: Sendable, CustomStringConvertible, Equatable {
    /// JSON pointer of the offending value in the instance ("" is the root).
    public var instanceLocation: String
    /// JSON pointer of the failing keyword in the schema, e.g. "/properties/time/pattern". Locations inside
    /// a `$ref` target are given where the target is written (e.g. "/$defs/time/pattern").
    public var keywordLocation: String
    /// One line that names the offending value and what was expected.
    public var message: String

    /// Creates an error.
    public init(instanceLocation: String, keywordLocation: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.message = message
    }

    /// "`/time`: message", or "(root): message".
    public var description: String { "\(Self.displayLocation(instanceLocation)): \(message)" }

    /// A pointer as shown in messages: "`/a/0`", or "(root)" for "".
    static func displayLocation(_ pointer: String) -> String {
        pointer.isEmpty ? "(root)" : "`\(pointer)`"
    }
}
