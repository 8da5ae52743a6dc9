import SkillJSON

/// The user's decisions (`skill_registry.json`, docs/registry.md): which plugins and skills are on, and
/// per-plugin and per-skill overrides. Wraps the JSON document so members the host does not know survive
/// every write; typed accessors read and change the known ones. Ids used as keys are matched after
/// normalization, so a hand-written `"Clock"` key is the `clock` plugin.
public struct Registry: Sendable {
    /// The whole document, unknown members included, in file order.
    public internal(set) var document: JSONObject {
        didSet { aliases = Self.aliases(of: document) }
    }
    /// Plugin keys written in a non-canonical form, by their normalized id (the first in file order), so a
    /// lookup that misses the canonical key does not normalize every key.
    private var aliases: [String: String]
    /// The file it came from (for messages).
    public let file: String

    /// The format version this host writes and reads.
    public static let currentVersion: Int64 = 1

    /// A registry with no decisions yet.
    public static func empty(file: String) -> Registry {
        Registry(unchecked: ["version": .int(currentVersion)], file: file)
    }

    private init(unchecked document: JSONObject, file: String) {
        self.document = document
        self.file = file
        self.aliases = Self.aliases(of: document)
    }

    private static func aliases(of document: JSONObject) -> [String: String] {
        var aliases: [String: String] = [:]
        for key in document["plugins"]?.objectValue?.keys ?? [] {
            let id = Identifier.normalize(key)
            if id != key, aliases[id] == nil { aliases[id] = key }
        }
        return aliases
    }

    /// Checks a parsed document.
    /// - Throws: ``HostError`` of kind `registry` naming the file, the JSON pointer and the expected value.
    public init(document: JSONValue, file: String) throws(HostError) {
        guard case .object(let object) = document else {
            throw HostError(.registry, "\(file): the registry must be a JSON object, got \(document.typeName); fix the file by hand or move it away")
        }
        self.init(unchecked: object, file: file)
        try RegistryCheck(registry: self).run()
    }

    /// The whole document as JSON.
    public var json: JSONValue { .object(document) }

    // MARK: - Policies

    /// The state of plugins without an entry (`new_plugins`, default enabled).
    public var newPlugins: NewPluginState {
        document["new_plugins"]?.stringValue.flatMap(NewPluginState.init(rawValue:)) ?? .enabled
    }

    /// Whether untrusted plugins may run (`trust`, default warn).
    public var trustPolicy: TrustPolicy {
        (try? TrustPolicy(registryValue: document["trust"]?.stringValue)) ?? .warn
    }

    // MARK: - Plugins

    /// The entry of a plugin, found by normalized id.
    public func pluginEntry(_ pluginID: String) -> JSONObject? {
        guard let key = pluginKey(pluginID) else { return nil }
        return document["plugins"]?[key]?.objectValue
    }

    /// Whether the plugin is enabled: its entry's `enabled`, else the `new_plugins` state.
    public func pluginEnabled(_ pluginID: String) -> Bool {
        pluginSettings(pluginID).enabled ?? (newPlugins == .enabled)
    }

    /// The plugin's effective settings: its entry over `defaults`.
    public func pluginSettings(_ pluginID: String) -> PluginSettings {
        let id = Identifier.normalize(pluginID)
        let pointer = "/plugins/\(JSONPointer.escape(id))"
        return (try? RegistryCheck.pluginSettings(pluginEntry(id), defaults: document["defaults"]?.objectValue, pointer: pointer))
            ?? PluginSettings()
    }

    /// Enables or disables a plugin (creates its entry when needed).
    public mutating func setPluginEnabled(_ pluginID: String, _ enabled: Bool) {
        setPluginValue(.bool(enabled), forKey: "enabled", plugin: pluginID)
    }

    /// Records (or with nil removes) the trusted SHA-256 of a plugin file.
    public mutating func setPluginSHA256(_ hash: String?, plugin pluginID: String) {
        setPluginValue(hash.map(JSONValue.string), forKey: "sha256", plugin: pluginID)
    }

    /// Sets (or with nil removes) one member of a plugin's entry, creating the entry when needed.
    public mutating func setPluginValue(_ value: JSONValue?, forKey key: String, plugin pluginID: String) {
        let id = Identifier.normalize(pluginID)
        let pluginKey = self.pluginKey(id) ?? id
        var plugins = document["plugins"]?.objectValue ?? JSONObject()
        var entry = plugins[pluginKey]?.objectValue ?? JSONObject()
        entry[key] = value
        plugins[pluginKey] = .object(entry)
        document["plugins"] = .object(plugins)
    }

    /// Sets (or with nil removes) one top-level member (for the parts kept in files of their own).
    mutating func setDocumentValue(_ value: JSONValue?, forKey key: String) {
        document[key] = value
    }

    // MARK: - Skills

    /// A skill's entry (`plugins.<plugin>.skills.<skill id>`), found by normalized ids.
    public func skillSettings(_ skillID: String, plugin pluginID: String) -> SkillSettings {
        guard let entry = skillEntry(skillID, plugin: pluginID) else { return SkillSettings() }
        return RegistryCheck.skillSettings(entry)
    }

    /// Whether a skill is enabled: its plugin is, and its own entry does not say `false`.
    public func skillEnabled(_ skillID: String, plugin pluginID: String) -> Bool {
        pluginEnabled(pluginID) && (skillSettings(skillID, plugin: pluginID).enabled ?? true)
    }

    /// Enables or disables one skill (creates the entries when needed).
    public mutating func setSkillEnabled(_ skillID: String, plugin pluginID: String, _ enabled: Bool) {
        setSkillValue(.bool(enabled), forKey: "enabled", skill: skillID, plugin: pluginID)
    }

    /// Sets (or with nil removes) one member of a skill's entry, creating the entries when needed.
    public mutating func setSkillValue(_ value: JSONValue?, forKey key: String, skill skillID: String, plugin pluginID: String) {
        let id = Identifier.normalize(skillID)
        let plugin = Identifier.normalize(pluginID)
        var skills = pluginEntry(plugin)?["skills"]?.objectValue ?? JSONObject()
        let skillKey = skills.keys.first { Identifier.normalize($0) == id } ?? id
        var entry = skills[skillKey]?.objectValue ?? JSONObject()
        entry[key] = value
        skills[skillKey] = .object(entry)
        setPluginValue(.object(skills), forKey: "skills", plugin: plugin)
    }

    func skillEntry(_ skillID: String, plugin pluginID: String) -> JSONObject? {
        guard let skills = pluginEntry(pluginID)?["skills"]?.objectValue else { return nil }
        let id = Identifier.normalize(skillID)
        guard let key = skills.keys.first(where: { Identifier.normalize($0) == id }) else { return nil }
        return skills[key]?.objectValue
    }

    private func pluginKey(_ pluginID: String) -> String? {
        guard let plugins = document["plugins"]?.objectValue else { return nil }
        let id = Identifier.normalize(pluginID)
        if plugins[id] != nil { return id }
        return aliases[id]
    }
}
