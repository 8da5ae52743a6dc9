import SkillHostCore
import SkillJSON

/// One enabled skill as a tool, the same for every front end (the agent's model, an MCP client, `skillhost
/// call`): the skill as its manifest declares it (``skill``, the one type that describes a skill, with the
/// effective timeout), whose facts read through the tool (`tool.id`, `tool.title`, `tool.parameters` —
/// the input schema —, `tool.outputSchema`, `tool.permission`, …), and the ``annotations`` derived from them.
@dynamicMemberLookup
public struct SkillTool: Sendable, Equatable {
    /// How much a skill may change (the manifest's `permission`): `write` and `dangerous` skills need the
    /// user's approval. The host's type, so no conversion can lose or widen a permission.
    public typealias Permission = SkillHostCore.Permission

    /// The skill: id, title, description, parameter schema, permission, timeout, examples, summary, output
    /// schema.
    public var skill: SkillManifest {
        get { storage.skill }
        set { storage = Storage(newValue) }
    }

    /// The manifest, held once: a tool travels with every call through several layers (request, recorded
    /// call, outcome, row) and is copied at each, which costs one retain this way instead of one per field
    /// of the manifest.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let skill: SkillManifest
        init(_ skill: SkillManifest) { self.skill = skill }
    }
    @usableFromInline var storage: Storage

    /// A tool for `skill`.
    public init(skill: SkillManifest) { storage = Storage(skill) }

    public static func == (left: SkillTool, right: SkillTool) -> Bool {
        left.storage === right.storage || left.skill == right.skill
    }

    /// A tool for a host's skill description (its effective timeout: the registry's override when set).
    public init(_ skill: SkillDescription) {
        var declared = skill.manifest
        declared.timeout = skill.timeout
        self.init(skill: declared)
    }

    /// A tool with these facts.
    public init(
        id: String, title: String = "", description: String, parameters: JSONValue = ["type": "object"],
        permission: Permission = .read, timeout: Double = SkillDefaults.timeout, idempotent: Bool = false, examples: [String] = [],
        summary: String? = nil
    ) {
        self.init(skill: SkillManifest(
            id: id, title: title, description: description, parameters: parameters, permission: permission,
            timeout: timeout, idempotent: idempotent, examples: examples, summary: summary))
    }

    /// The manifest's facts, read and written through the tool (``SkillManifest`` is the one type that
    /// describes a skill, so they are not restated here).
    @inlinable
    public subscript<Value>(dynamicMember path: WritableKeyPath<SkillManifest, Value>) -> Value {
        get { storage.skill[keyPath: path] }
        set { skill[keyPath: path] = newValue }
    }

    /// What the tool tells a client about its behaviour (MCP's tool annotations): read-only for `read`
    /// skills, destructive for `dangerous` ones, idempotent as the manifest says; no skill reaches an open
    /// world (they run sandboxed).
    public var annotations: ToolAnnotations {
        ToolAnnotations(
            title: skill.title, readOnly: skill.permission == .read, destructive: skill.permission == .dangerous,
            idempotent: skill.idempotent, openWorld: false)
    }
}

/// Hints about a tool's behaviour (MCP's `annotations`), derived from its skill's manifest.
public struct ToolAnnotations: Sendable, Equatable {
    /// A short title.
    public var title: String
    /// It changes nothing.
    public var readOnly: Bool
    /// It may destroy or overwrite data.
    public var destructive: Bool
    /// Repeating a call has no further effect.
    public var idempotent: Bool
    /// It reaches outside a closed set of things.
    public var openWorld: Bool

    /// MCP's `annotations` object.
    public var json: JSONValue {
        [
            "title": .string(title), "readOnlyHint": .bool(readOnly), "destructiveHint": .bool(destructive),
            "idempotentHint": .bool(idempotent), "openWorldHint": .bool(openWorld),
        ]
    }
}
