import JSONSchema
import SkillJSON
import Synchronization

/// Validates call arguments against a skill's `parameters` schema before any plugin code runs. Compiled
/// schemas are kept per skill (and recompiled when the schema changes): a schema compiled for the same
/// catalog build (`generation`) is used without comparing; after a rebuild the schemas are compared once. Formats assert: a `date-time`
/// parameter that gets "tomorrow" is refused. The one argument validator: the host's calls and the agent's
/// built-in tools use it.
public final class ArgumentValidator: Sendable {
    /// The most errors listed in one message.
    static let maximumErrors = 10

    /// A skill of a plugin file (no string is built per call to look one up).
    private struct Key: Hashable {
        var pluginPath: String
        var skillID: String
    }

    private let compiled = Mutex<[Key: (parameters: JSONValue, generation: Int, schema: Schema)]>([:])

    /// A validator with nothing compiled yet.
    public init() {}

    /// - Throws: ``HostError`` `invalidArguments` listing every error with its JSON pointer, on one line;
    ///   `details` holds them as `[{"pointer", "keyword", "message"}]`.
    /// - Parameter generation: the catalog build `skill` comes from (``ProcessCatalogCache``); -1 when
    ///   unknown (the schema is then always compared).
    public func validate(_ arguments: JSONValue, for skill: SkillDescription) throws(HostError) {
        try validate(arguments, for: skill, generation: -1, route: nil)
    }

    func validate(
        _ arguments: JSONValue, for skill: SkillDescription, generation: Int, route: SkillRoute?
    ) throws(HostError) {
        guard case .object = arguments else {
            throw HostError(.invalidArguments,
                "skill \(skill.id): arguments must be a JSON object, got \(arguments.typeName); e.g. '{}'",
                skillID: skill.id, pluginID: skill.pluginID)
        }
        let schema: Schema
        // A route keeps the schema compiled under its catalog build (no look-up by path and id).
        if let known = route?.schema.withLock({ $0 }) {
            schema = known
        } else {
            schema = try self.schema(for: skill, generation: generation)
            route?.schema.withLock { $0 = schema }
        }
        let errors = schema.validate(arguments, maxErrors: Self.maximumErrors)
        guard !errors.isEmpty else { return }
        let list = errors.map(\.description).joined(separator: "; ")
        throw HostError(.invalidArguments,
            "skill \(skill.id): invalid arguments: \(list); see 'skillhost inspect \(skill.id)' for the parameters",
            skillID: skill.id, pluginID: skill.pluginID,
            details: .array(errors.map {
                ["pointer": .string($0.instanceLocation), "keyword": .string($0.keywordLocation), "message": .string($0.message)]
            }))
    }

    private func schema(for skill: SkillDescription, generation: Int) throws(HostError) -> Schema {
        let key = Key(pluginPath: skill.pluginPath, skillID: skill.id)
        if let entry = compiled.withLock({ $0[key] }) {
            if generation >= 0, entry.generation == generation { return entry.schema }
            if entry.parameters == skill.parameters {
                // Remembered for the next call of this generation (a call outside any catalog, -1, has none).
                if generation >= 0 { compiled.withLock { $0[key]?.generation = generation } }
                return entry.schema
            }
        }
        let schema: Schema
        // Not checked against the draft 2020-12 meta-schema again: the catalog holds only manifests the
        // manifest checker passed (it ran that check on every parameters schema), and compiling the
        // meta-schema cost every `skillhost call` process about 3 ms (issue #9). Compiling still refuses
        // what it cannot read.
        var options = ManifestSchema.parameterOptions
        options.validatesAgainstMetaSchema = false
        do {
            schema = try Schema(compiling: skill.parameters, options: options)
        } catch {
            throw HostError(.invalidPlugin,
                "skill \(skill.id): its parameters schema does not compile (\(error.description)); run 'skillhost rescan'",
                skillID: skill.id, pluginID: skill.pluginID)
        }
        compiled.withLock { $0[key] = (skill.parameters, generation, schema) }
        return schema
    }
}
