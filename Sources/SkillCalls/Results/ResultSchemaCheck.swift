import JSONSchema
import SkillHostCore
import SkillJSON
import Synchronization

/// Checks skill results against their manifest's `output_schema` (docs/manifest.md, "Result schemas"), once
/// per call, for every front end (``ToolCaller``): MCP promises a client that a tool with an `outputSchema`
/// returns conforming `structuredContent`, and a model is not handed a result its tool does not promise.
/// Compiled schemas are kept per skill and compiled again when the schema changes. Thread-safe.
public final class ResultSchemaCheck: Sendable {
    /// The most faults named in one message.
    public static let maximumErrors = 5

    private let compiled = Mutex<[String: (schema: JSONValue, compiled: Schema)]>([:])

    /// A check with nothing compiled yet.
    public init() {}

    /// The failure of a call whose `result` does not conform to `skill`'s output schema (kind
    /// `invalidResult`); nil when it conforms or the skill declares no output schema.
    public func failure(of result: JSONValue, from skill: SkillManifest) -> HostError? {
        guard skill.outputSchema != nil, let problem = problem(with: result, of: skill) else { return nil }
        return HostError(.invalidResult, problem, skillID: skill.id)
    }

    /// Why `result` does not conform to `skill`'s output schema, in one line that names each fault's JSON
    /// pointer; nil when it conforms or the skill declares no output schema.
    public func problem(with result: JSONValue, of skill: SkillManifest) -> String? {
        guard let declared = skill.outputSchema else { return nil }
        guard case .object = result else {
            return "skill \(skill.id) returned \(result.typeName), but its output_schema promises an object; fix the skill or its manifest"
        }
        let schema: Schema
        if let entry = compiled.withLock({ $0[skill.id] }), entry.schema == declared {
            schema = entry.compiled
        } else {
            do {
                schema = try Schema(compiling: declared, options: ManifestSchema.parameterOptions)
            } catch {
                return "skill \(skill.id): its output_schema does not compile (\(error.description)); run 'skillhost validate' on the plugin"
            }
            compiled.withLock { $0[skill.id] = (declared, schema) }
        }
        let errors = schema.validate(result, maxErrors: Self.maximumErrors)
        guard !errors.isEmpty else { return nil }
        let list = errors.map(\.description).joined(separator: "; ")
        return "skill \(skill.id) returned a result that does not match its output_schema: \(list); fix the skill or its manifest"
    }
}
