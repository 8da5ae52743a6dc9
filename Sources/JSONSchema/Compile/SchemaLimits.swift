/// The bounds that keep a hostile schema or instance from hanging or exhausting the host.
///
/// - A schema compiles to at most ``maximumNodes`` subschemas and nests at most ``maximumSchemaDepth`` deep.
/// - Validation follows at most ``maximumEvaluationDepth`` nested subschemas (through `$ref`s included);
///   deeper, as with `{"$ref": "#"}` applied to itself, the instance is reported invalid, not recursed.
/// - A regex search takes at most ``regexStepBudget`` machine steps; past that the string is reported as
///   not matching, with a message saying so. Counted repetition compiles to at most 20,000 steps.
public enum SchemaLimits {
    /// The most subschemas one compiled schema may hold.
    public static let maximumNodes = 100_000
    /// The deepest nesting of subschemas inside one document.
    public static let maximumSchemaDepth = 200
    /// The deepest chain of subschemas one validation follows.
    public static let maximumEvaluationDepth = 400
    /// The most backtracking steps one regex search may take (about 10 ms).
    public static let regexStepBudget = 1_000_000
}
