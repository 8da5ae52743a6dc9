/// Which plugin build ran a skill: recorded with each call.
public struct PluginProvenance: Sendable, Equatable {
    /// The plugin's manifest version.
    public var version: String?
    /// SHA-256 of the plugin file.
    public var sha256: String?

    /// Provenance with these parts.
    public init(version: String?, sha256: String?) {
        self.version = version
        self.sha256 = sha256
    }
}
