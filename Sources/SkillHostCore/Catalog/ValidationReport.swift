import SkillJSON

/// The result of checking one plugin file without installing it (`skillhost validate PATH`).
public struct ValidationReport: Sendable {
    /// The file checked (absolute).
    public var path: String
    /// The checked manifest when everything passed.
    public var manifest: PluginManifest?
    /// Every problem found, one line each (empty when the file passed).
    public var problems: [String]
    /// Whether the scanner child crashed or hung on it (rather than finding it invalid).
    public var isBroken: Bool
    /// What the host accepts but the author should fix, one line each (the same advice `SkillCheck`'s
    /// `problems` gives).
    public var advice: [String] = []

    /// Whether the file passed every check.
    public var isValid: Bool { manifest != nil && problems.isEmpty }
}
