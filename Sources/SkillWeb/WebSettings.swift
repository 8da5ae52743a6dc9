import SkillAgent
import SkillHostCore
import SkillJSON

/// The Settings tab: the registry's `chat` object (provider, base URL, model, context budget, steps) that
/// `skillhost chat` and `ui` read after their flags and environment, and each skill's approval policy
/// (`plugins.P.skills.S.approval`). Every value is checked by the same rules as the command line's
/// (``ChatSettings``, ``ApprovalPolicy``) and written with the registry's one locked, atomic update.
struct WebSettings {
    let chat: WebChat

    private var host: SkillHost { chat.setup.host }

    /// The saved settings, what is in effect, and each skill's approval.
    func current() throws -> JSONValue {
        let registry = try host.registryStore.read()
        let saved = (try? ChatSettings(registry: registry.chat, file: registry.file))?.json ?? .object(registry.chat)
        let configuration = chat.configuration
        let skills = ((try? host.catalog())?.plugins ?? []).flatMap(\.skills).map { skill -> JSONValue in
            [
                "id": .string(skill.id), "title": .string(skill.title), "permission": .string(skill.permission.rawValue),
                "approval": .string(skill.approval.rawValue),
            ]
        }
        return [
            "saved": saved, "file": .string(registry.file), "providers": .array(ProviderSelection.providerNames.map(JSONValue.string)),
            "effective": [
                "model": .string(chat.modelName), "max_steps": .int(Int64(configuration.maxSteps)),
                "history_tokens": .int(Int64(configuration.historyTokenBudget)),
            ],
            "approvals": .array(skills),
        ]
    }

    /// Checks and writes the `chat` object, then reads the model again; on a failure nothing is changed.
    func save(_ body: JSONValue) throws -> JSONValue {
        var object = JSONObject()
        for key in ["provider", "base_url", "model", "context_tokens", "max_steps"] {
            guard let value = body[key], value != .null, value != .string("") else { continue }
            object[key] = value
        }
        let store = host.registryStore
        let settings: ChatSettings
        do {
            settings = try ChatSettings(registry: object, file: store.path)
        } catch {
            throw WebRefusal(400, error.message)
        }
        let before = try store.read().chat
        try write(settings.registryMembers, to: store)
        do {
            try chat.reconfigure()
        } catch {
            try? write(settings.registryMembers.map { ($0.key, before[$0.key]) }, to: store)
            throw WebRefusal(400, "not saved: \((error as? ModelProviderError)?.message ?? (error as? HostError)?.message ?? "\(error)")")
        }
        return try current()
    }

    /// Sets one skill's approval policy.
    func setApproval(_ skillID: String, _ text: String) throws -> JSONValue {
        guard let policy = ApprovalPolicy(rawValue: text) else {
            throw WebRefusal(400, "approval '\(WebAccess.shown(text))' is not one of: \(ApprovalPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let catalog = try host.catalog()
        guard let (skill, plugin) = catalog.skill(skillID) else {
            throw WebRefusal(404, "no skill \"\(Identifier.normalize(skillID))\"; \(catalog.didYouMean(skillID, among: [.skill]))pick one from the list")
        }
        try host.registryStore.update { registry in
            registry.setSkillValue(.string(policy.rawValue), forKey: "approval", skill: skill.id, plugin: plugin.id)
        }
        return ["skill": .string(skill.id), "approval": .string(policy.rawValue)]
    }

    private func write(_ members: [(key: String, value: JSONValue?)], to store: RegistryStore) throws {
        try store.update { registry in
            for member in members { registry.setChatValue(member.value, forKey: member.key) }
        }
    }
}
