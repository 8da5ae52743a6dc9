extension Catalog {
    /// Why there is no skill `skillID` when the plugin it would belong to (`<plugin id>.<name>`) is listed but
    /// unusable without a manifest (invalid or broken: e.g. it needs a newer host ABI), as the error a call
    /// of it gets; nil otherwise.
    public func unusableOwner(ofSkill skillID: String) -> HostError? {
        guard let owner = plugins.first(where: { $0.manifest == nil && skillID.hasPrefix($0.id + ".") }) else { return nil }
        let kind: HostError.Kind = owner.status == .broken ? .pluginCrashed : .invalidPlugin
        return HostError(
            kind, "no skill \"\(skillID)\": its plugin \(owner.id) is \(owner.status.rawValue): \(owner.error ?? "see 'skillhost list'")",
            skillID: skillID, pluginID: owner.id)
    }
}
