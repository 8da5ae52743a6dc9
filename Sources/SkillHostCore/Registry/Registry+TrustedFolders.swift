import SkillJSON

/// The project folders the user trusts (`trusted_folders`, written by `skillhost trust --folder PATH`): only in
/// those are a working folder's `.agents/skills/` and `.claude/skills/` loaded (docs/instruction-skills.md,
/// "Project skills"), so a freshly cloned repository cannot put instructions in front of the model.
extension Registry {
    /// The registry member holding them: a list of absolute paths, as resolved when trusted.
    static let trustedFoldersKey = "trusted_folders"

    /// The trusted project folders (absolute, links resolved when they were trusted), in the order trusted.
    public var trustedFolders: [String] {
        document[Self.trustedFoldersKey]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Whether the project folder `folder` (absolute, links resolved) is trusted.
    public func trustsFolder(_ folder: String) -> Bool { trustedFolders.contains(folder) }

    /// Trusts `folder` (absolute, links resolved), or with `trusted` false stops trusting it.
    public mutating func setFolderTrusted(_ folder: String, _ trusted: Bool) {
        var folders = trustedFolders.filter { $0 != folder }
        if trusted { folders.append(folder) }
        document[Self.trustedFoldersKey] = folders.isEmpty ? nil : .array(folders.map(JSONValue.string))
    }
}

extension RegistryCheck {
    /// `trusted_folders`: a list of absolute paths (written by `skillhost trust --folder PATH`).
    func checkTrustedFolders(_ value: JSONValue?) throws(HostError) {
        guard let value else { return }
        guard case .array(let items) = value else {
            throw fail("/trusted_folders", "must be a list of absolute folder paths (written by 'skillhost trust --folder PATH'), got \(value.typeName)")
        }
        for (index, item) in items.enumerated() {
            guard let path = item.stringValue, path.hasPrefix("/") else {
                throw fail("/trusted_folders/\(index)", "must be an absolute folder path (written by 'skillhost trust --folder PATH'), got \(item.serialized())")
            }
        }
    }
}
