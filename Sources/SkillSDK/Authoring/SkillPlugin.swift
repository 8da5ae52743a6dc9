import CSkillABI
import SkillJSON
import Synchronization

/// A plugin: an id, a version, a description and its skills. Export it from the plugin's one C symbol:
/// ```swift
/// @_cdecl("skill_plugin_entry")
/// public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
///     SkillPlugin(id: "clock", name: "Clock", version: "1.0.0",
///                 description: "Current time in any time zone and date arithmetic.",
///                 skills: [Now(), Add()]).export(major, minor, host)
/// }
/// ```
/// The SDK builds the manifest from the skills, answers the host's calls on the host's thread, runs each
/// skill's `async` ``Skill/execute(_:context:)`` in a task, and converts errors to status codes. Only C data
/// crosses the boundary: each plugin links its own copy of the SDK.
public struct SkillPlugin: Sendable {
    /// Normalized plugin id: dot-separated segments of `[a-z0-9_-]`, e.g. `"clock"`.
    public var id: String
    /// Human name, e.g. `"Clock"`.
    public var name: String
    /// Semantic version of the plugin, e.g. `"1.2.0"`.
    public var version: String
    /// What the plugin is for, in one or two sentences.
    public var description: String
    /// The skills, in the order the host lists them.
    public var skills: [any Skill]
    /// What the plugin may touch in its sandbox; nil = not declared (the data folder only). See
    /// ``declaring(_:)``.
    public var capabilities: SkillCapabilities? = nil

    /// A plugin.
    public init(id: String, name: String, version: String, description: String, skills: [any Skill]) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.skills = skills
    }

    /// The id the host knows `skill` by: `"<plugin id>.<skill name>"`.
    public func skillID(of skill: any Skill) -> String { "\(id).\(skill.name)" }

    /// The body of `skill_plugin_entry`: the plugin's descriptor for a host of ABI major 1, or nil for
    /// another major. Returns the same descriptor every time it is called for this plugin id.
    /// - Parameters:
    ///   - hostMajor: the ABI major version the host implements.
    ///   - hostMinor: the ABI minor version the host implements (any is accepted).
    ///   - host: the host's `skill_host_api` table (unused by the SDK today).
    /// - Returns: a `const skill_plugin_descriptor *` with static lifetime, or nil.
    public func export(_ hostMajor: UInt32, _ hostMinor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
        guard hostMajor == UInt32(SKILL_ABI_VERSION_MAJOR) else { return nil }
        return UnsafeRawPointer(exportedRuntime().descriptor)
    }

    /// The runtime for this plugin id, made on first use.
    func exportedRuntime() -> PluginRuntime {
        exportedPlugins.withLock { plugins in
            if let existing = plugins[id] { return existing }
            let runtime = PluginRuntime(plugin: self)
            plugins[id] = runtime
            return runtime
        }
    }
}

/// Every plugin exported from this copy of the SDK, by id. A plugin library holds one; a test may hold several.
private let exportedPlugins = Mutex<[String: PluginRuntime]>([:])
