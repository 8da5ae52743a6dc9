import SkillJSON

extension SkillHost {
    /// What `grant` changed: the plugin, the capability word, and the grants before and after.
    public struct GrantChange: Sendable, Equatable {
        public var pluginID: String
        public var capability: String
        public var granted: Bool
        public var grants: [String]
        public var previousGrants: [String]
    }

    /// Records (or, with `revoke`, withdraws) the user's decision to let a plugin do one thing beyond its
    /// manifest: registry `plugins.<id>.grants`, written atomically under the registry lock.
    /// - Parameters:
    ///   - pluginID: the plugin.
    ///   - capability: a capability word (``Capability/syntax``), e.g. `network:tcp:443`.
    ///   - revoke: remove the grant instead of adding it.
    /// - Throws: ``HostError`` `notFound` for an unknown plugin, `invalidArguments` for a word that is not a
    ///   capability, or `registry`.
    @discardableResult
    public func grant(pluginID: String, capability word: String, revoke: Bool = false) throws(HostError) -> GrantChange {
        let id = Identifier.normalize(pluginID)
        let catalog = try catalog()
        // A plugin's workers, or an instruction skill's scripts (run_skill_script), get what is granted.
        guard catalog.plugin(id) != nil || catalog.instruction(id) != nil else {
            throw HostError(.notFound, "no plugin or instruction skill \"\(id)\"; \(catalog.didYouMean(id, among: [.plugin, .instruction]))run 'skillhost list' to see the ids", pluginID: id)
        }
        guard let capability = Capability(word) else {
            throw HostError(.invalidArguments, "\"\(word)\" is not a capability; use one of \(Capability.syntax)", pluginID: id)
        }
        var change = GrantChange(pluginID: id, capability: capability.description, granted: !revoke, grants: [], previousGrants: [])
        try registryStore.update { registry in
            let current = registry.pluginEntry(id)?["grants"]?.arrayValue?.compactMap(\.stringValue) ?? []
            change.previousGrants = current
            var next = current.filter { $0 != capability.description }
            if !revoke { next.append(capability.description) }
            change.grants = next
            registry.setPluginValue(next.isEmpty ? nil : .array(next.map(JSONValue.string)), forKey: "grants", plugin: id)
        }
        return change
    }
}
