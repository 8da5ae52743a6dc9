import SkillContract
import SkillJSON

/// One skill as its plugin's manifest declares it.
public struct SkillManifest: Sendable, Equatable {
    /// `<plugin id>.<name>`, canonical (docs/ids.md).
    public var id: String
    /// Short human title.
    public var title: String
    /// What the model reads: what the skill is for and what it is not for.
    public var description: String
    /// The JSON Schema (draft 2020-12, root an object schema) of the arguments.
    public var parameters: JSONValue
    /// What the skill may do.
    public var permission: Permission
    /// Time limit in seconds (default ``SkillDefaults/timeout``).
    public var timeout: Double
    /// Whether repeating a call has no further effect.
    public var idempotent: Bool
    /// Example utterances, templates with `{parameter}` slots.
    public var examples: [String]
    /// A template for a one-line result summary in plain words, e.g. `"It is {time} on {weekday}."`:
    /// `{field}` is a member of the result object, `{a.b}` a nested member, `{items.count}` an array's
    /// length. Nil when the manifest gives none.
    public var summary: String? = nil
    /// The skill's own `capabilities` (a subset of its plugin's); nil = the plugin's.
    public var capabilities: PluginCapabilities? = nil
    /// The JSON Schema (draft 2020-12, root an object schema) every result conforms to (manifest
    /// `output_schema`); nil when the manifest gives none. MCP serves it as the tool's `outputSchema`.
    public var outputSchema: JSONValue? = nil

    /// A skill with these facts (a manifest's entry, already checked).
    public init(
        id: String, title: String, description: String, parameters: JSONValue, permission: Permission,
        timeout: Double = SkillDefaults.timeout, idempotent: Bool, examples: [String] = [], summary: String? = nil,
        capabilities: PluginCapabilities? = nil, outputSchema: JSONValue? = nil
    ) {
        self.capabilities = capabilities
        self.outputSchema = outputSchema
        self.id = id
        self.title = title
        self.description = description
        self.parameters = parameters
        self.permission = permission
        self.timeout = timeout
        self.idempotent = idempotent
        self.examples = examples
        self.summary = summary
    }
}

/// A plugin's manifest (docs/manifest.md), checked.
public struct PluginManifest: Sendable, Equatable {
    /// Canonical plugin id.
    public var id: String
    /// Human name.
    public var name: String
    /// Semantic version of the plugin.
    public var version: String
    /// "MAJOR.MINOR" of the ABI the plugin was built against.
    public var abiVersion: String
    /// What the plugin offers.
    public var description: String
    /// Whether several invokes may run at once.
    public var threadSafe: Bool
    /// The skills, in manifest order.
    public var skills: [SkillManifest]
    /// The manifest document exactly as the plugin returned it.
    public var document: JSONValue
    /// What the plugin may touch in its sandbox (manifest `capabilities`); ``PluginCapabilities/minimal``
    /// when the manifest declares none.
    public var capabilities: PluginCapabilities = .minimal
}
