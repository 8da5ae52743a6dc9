import JSONSchema
import SkillHostCore
import SkillJSON

/// Checks a call's arguments against the tool's parameter schema before the call is dispatched, so every
/// backend (the host checks again; an MCP or test backend may not) gets only schema-valid calls and the
/// model gets every error with its JSON pointer. Formats assert, as in the host: "tomorrow" is not a
/// `date-time`.
struct ArgumentChecker: Sendable {
    /// The most errors listed in one message.
    static let maximumErrors = 10

    private let schemas: [String: Schema]

    /// Compiles the schemas of `tools`; a schema that does not compile is left to the backend to report.
    init(tools: [AgentTool]) {
        var options = SchemaOptions()
        options.assertFormats = true
        var schemas: [String: Schema] = [:]
        for tool in tools {
            schemas[tool.skillID] = try? Schema(compiling: tool.parameters, options: options)
        }
        self.schemas = schemas
    }

    /// The error for `arguments` of `skillID`, or nil when they are valid (or the schema is unknown).
    func check(_ arguments: JSONValue, for skillID: String) -> HostError? {
        guard let schema = schemas[skillID] else { return nil }
        let errors = schema.validate(arguments, maxErrors: Self.maximumErrors)
        guard !errors.isEmpty else { return nil }
        let list = errors.map(\.description).joined(separator: "; ")
        return HostError(
            .invalidArguments, "\(skillID): invalid arguments: \(list); fix them to match the parameter schema",
            skillID: skillID,
            details: .array(
                errors.map {
                    ["pointer": .string($0.instanceLocation), "keyword": .string($0.keywordLocation), "message": .string($0.message)]
                }))
    }
}
