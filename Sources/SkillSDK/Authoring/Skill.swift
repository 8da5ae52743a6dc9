import SkillJSON

/// One thing an AI agent can do: a name, a description the model reads, a JSON Schema for its arguments
/// and an `async` function that does the work.
///
/// Write one type per skill and list instances of them in a ``SkillPlugin``:
/// ```swift
/// struct Now: Skill {
///     struct Arguments: Decodable { var timezone: String? }
///     struct Output: Encodable { var time: String }
///     let name = "now"
///     let title = "Current time"
///     let description = "The current date and time in a time zone. Not for date arithmetic."
///     let parameters = ParameterSchema.object([
///         "timezone": .string("IANA time zone, e.g. Europe/Paris", pattern: "^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$"),
///     ], required: [])
///     let examples = ["what time is it in {timezone}", "current time"]
///     let summary: String? = "It is {time}."
///
///     func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output { … }
/// }
/// ```
///
/// `Arguments` is any `Decodable` type (or ``JSONValue`` for the raw object); `Output` any `Encodable` type
/// (or ``JSONValue``). The SDK decodes and encodes them without Foundation.
///
/// A skill whose work never waits conforms to ``SynchronousSkill`` instead and writes a synchronous
/// ``SynchronousSkill/run(_:context:)``: the SDK then calls it on the host's thread with no `Task`, the
/// cheapest call a Swift skill gets.
///
/// # Implementation requirements
///
/// To implement a skill:
/// - Keep ``name`` stable and normalized: one or more dot-separated segments of `[a-z0-9_-]`. The host
///   calls the skill `<plugin id>.<name>`, and registries, traces and users' settings refer to that id.
/// - Make ``parameters`` describe exactly what `Arguments` decodes: an object schema with
///   `additionalProperties: false`, every member `Arguments` requires listed in `required`, and formats,
///   patterns, enums and ranges where they fit. The host validates arguments against it before
///   ``execute(_:context:)`` runs, so a well-written schema means `execute` rarely sees bad input.
/// - Write ``description`` for the model: what the skill is for, and what it is not for.
/// - Write several ``examples``: utterances with a `{name}` slot for each required parameter.
/// - Give a ``summary`` template so people see the result in words, not as a list of fields.
/// - ``execute(_:context:)`` may run on several threads at once (plugins built with the SDK declare
///   `thread_safe`): keep shared state behind a lock or in an actor.
/// - In loops and long waits, check `Task.isCancelled` or ``SkillContext/isCancelled`` (or call
///   ``SkillContext/checkCancellation()``) and stop; the host cancels calls that pass their timeout.
/// - Report failures by throwing ``SkillError`` (with a JSON pointer for bad arguments and a remedy where
///   there is one); never call `fatalError`, `exit` or `print` to stdout: the plugin runs inside the host.
/// - A ``SkillPermission/write`` or ``SkillPermission/dangerous`` skill that is not idempotent uses
///   ``SkillContext/idempotencyKey`` so that a retried call does not repeat its side effect.
///
/// The SDK's tests (`Tests/SkillSDKTests`) show the behaviour the bridge guarantees for each of these.
public protocol Skill: Sendable {
    /// The decoded arguments: a `Decodable` type, or ``JSONValue``.
    associatedtype Arguments: Sendable
    /// The result: an `Encodable` type, or ``JSONValue``.
    associatedtype Output: Sendable

    /// The skill's name inside its plugin, e.g. `"now"`; the skill id is `"<plugin id>.<name>"`.
    var name: String { get }
    /// A short human title, e.g. `"Current time"`.
    var title: String { get }
    /// What the model reads to choose the skill: what it is for and what it is not for.
    var description: String { get }
    /// JSON Schema (draft 2020-12) of the arguments object; see ``ParameterSchema`` for helpers.
    var parameters: JSONValue { get }
    /// What the skill may change; ``SkillPermission/read`` by default.
    var permission: SkillPermission { get }
    /// Seconds the host waits before it cancels the call; 30 by default.
    var timeout: Double { get }
    /// Whether calling twice with the same arguments has the same effect as once; by default true for
    /// read-only skills and false otherwise.
    var isIdempotent: Bool { get }
    /// Example utterances with `{parameter}` slots, e.g. `"what time is it in {timezone}"`.
    var examples: [String] { get }
    /// A one-line summary of a result in plain words, with `{field}` slots for members of the result
    /// object (`{a.b}` for a nested member, `{items.count}` for an array's length), e.g.
    /// `"It is {time} on {weekday}."`; nil (the default) shows the result's fields instead. When a slot's
    /// field is missing from a result, that result is summarized without the template.
    var summary: String? { get }

    /// This skill's own sandbox capabilities, a subset of its plugin's; nil = the plugin's.
    var capabilities: SkillCapabilities? { get }

    /// JSON Schema (draft 2020-12, root an object schema) that every result of this skill conforms to,
    /// written to the manifest as `output_schema`; nil (the default) declares none. MCP clients receive it
    /// as the tool's `outputSchema`, and the host refuses a result that does not conform.
    var outputSchema: JSONValue? { get }

    /// Does the work.
    /// - Parameters:
    ///   - arguments: the decoded arguments, already validated by the host against ``parameters``.
    ///   - context: the call's ids, deadline, cancellation, configuration, data folder and session values.
    /// - Returns: the result the host hands back to the model.
    /// - Throws: ``SkillError`` for failures the user should understand; any other error is reported as a
    ///   failure with its description.
    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output

    /// Decodes the arguments object. Provided for `Decodable` arguments and for ``JSONValue``.
    /// - Throws: ``SkillError`` of kind ``SkillError/Kind/invalidArguments`` naming the field.
    static func decodeArguments(_ json: JSONValue) throws(SkillError) -> Arguments

    /// Encodes a result. Provided for `Encodable` outputs and for ``JSONValue``.
    static func encodeOutput(_ output: Output) throws -> JSONValue
}

// MARK: - Default implementations

extension Skill {
    public var permission: SkillPermission { .read }
    public var timeout: Double { SkillDefaults.timeout }
    public var isIdempotent: Bool { permission == .read }
    public var examples: [String] { [] }
    public var summary: String? { nil }
    public var capabilities: SkillCapabilities? { nil }
    public var outputSchema: JSONValue? { nil }
}

extension Skill where Arguments: Decodable {
    public static func decodeArguments(_ json: JSONValue) throws(SkillError) -> Arguments {
        try JSONValueDecoder().decodeArguments(Arguments.self, from: json)
    }
}

extension Skill where Arguments == JSONValue {
    public static func decodeArguments(_ json: JSONValue) throws(SkillError) -> Arguments { json }
}

extension Skill where Output: Encodable {
    public static func encodeOutput(_ output: Output) throws -> JSONValue {
        // During a host call the output goes straight to JSON bytes; the value returned then is unused.
        if OutputCapture.capture(output, of: Self.self) { return .null }
        return try JSONValueEncoder().encode(output)
    }
}

extension Skill where Output == JSONValue {
    public static func encodeOutput(_ output: Output) throws -> JSONValue { output }
}
