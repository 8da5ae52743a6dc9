import SkillJSON

/// Reads the sandbox members of a registry plugin entry (or `defaults`): `sandbox` (mode), `capabilities`
/// (narrowing) and `grants` (the user's `skillhost grant` decisions). See docs/registry.md.
enum SandboxSettings {
    /// Lays the members found in `object` over `settings`.
    /// - Throws: ``HostError`` of kind `registry` naming the member and what to write instead.
    static func overlay(_ object: JSONObject, at pointer: String, isDefaults: Bool, on settings: inout PluginSettings) throws(HostError) {
        if let value = object["sandbox"] {
            guard let mode = value.stringValue.flatMap(SandboxMode.init(rawValue:)) else {
                throw HostError(.registry, "registry \(pointer)/sandbox must be \"required\", \"best-effort\" or \"off\", got \(value.serialized())")
            }
            settings.sandbox = mode
        }
        guard !isDefaults else { return }
        if let value = object["capabilities"] {
            let (limit, problems) = PluginCapabilities.read(value, at: pointer + "/capabilities")
            if let first = problems.first {
                throw HostError(.registry, "registry \(first.pointer) \(first.message)")
            }
            settings.capabilityLimit = limit
        }
        if let value = object["grants"] {
            guard case .array(let items) = value else {
                throw HostError(.registry, "registry \(pointer)/grants must be an array of capability words like [\"network:tcp:443\"] (use 'skillhost grant'), got \(value.typeName)")
            }
            var grants: [Capability] = []
            for (index, item) in items.enumerated() {
                guard let word = item.stringValue, let capability = Capability(word) else {
                    throw HostError(.registry, "registry \(pointer)/grants/\(index) is \(item.serialized()), not a capability; use one of \(Capability.syntax)")
                }
                grants.append(capability)
            }
            settings.grants = grants
        }
    }
}
