import SkillJSON

extension PluginRecord {
    /// The plugin as `inspect PLUGIN_ID --json` shows it and `skillhost ui`'s skill detail starts from: its
    /// ``detailJSON`` plus `sandbox` (``sandboxJSON``), `publisher` and `policy`.
    public var inspectJSON: JSONValue {
        guard case .object(var object) = detailJSON else { return detailJSON }
        object["sandbox"] = sandboxJSON
        object["publisher"] = publisherJSON
        object["policy"] = policyJSON
        return .object(object)
    }
}
