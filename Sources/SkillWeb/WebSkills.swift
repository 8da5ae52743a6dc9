import SkillHostCore
import SkillJSON
import SkillStore

/// The Skills tab's answers: the catalog as `skillhost list --json` shows it, a plugin's or skill's detail
/// as `inspect --json` shows it plus what the tab adds (sandbox, grants, trust pin, recent calls with p50
/// and p95), and the toggle through the host's one locked, atomic registry write (`enable`/`disable`).
struct WebSkills {
    let host: SkillHost
    let store: HistoryStore

    /// Every plugin, its skills and every instruction skill, each with status and whether it is enabled.
    func list() -> JSONValue {
        do {
            let catalog = try host.catalog()
            guard case .object(var root) = catalog.json, case .array(let entries)? = root["plugins"] else { return catalog.json }
            root["plugins"] = .array(entries.map { entry in
                guard case .object(var object) = entry, let id = object["id"]?.stringValue, let plugin = catalog.plugin(id) else {
                    return entry
                }
                object["sandbox"] = plugin.manifest == nil ? .null : .string(plugin.sandboxLabel)
                return .object(object)
            })
            return .object(root)
        } catch {
            return ["plugins": [], "error": .string(error.message)]
        }
    }

    /// The detail of a plugin, plugin skill or instruction skill.
    func detail(_ rawID: String) throws -> JSONValue {
        let catalog = try host.catalog()
        let id = Identifier.normalize(rawID)
        let settings = try? host.registryStore.read()
        if let plugin = catalog.plugin(id) {
            guard case .object(var object) = plugin.detailJSON else { return plugin.detailJSON }
            object["sandbox"] = plugin.sandboxJSON
            object["publisher"] = plugin.publisherJSON
            object["policy"] = plugin.policyJSON
            object["trust_pin"] = settings?.pluginSettings(plugin.id).sha256.map(JSONValue.string) ?? .null
            object["grants"] = .array((settings?.pluginSettings(plugin.id).grants ?? []).map { .string($0.description) })
            return .object(object)
        }
        if let (skill, plugin) = catalog.skill(id) {
            guard case .object(var object) = skill.detailJSON else { return skill.detailJSON }
            object["sandbox"] = plugin.sandboxJSON
            object["trust_pin"] = settings?.pluginSettings(plugin.id).sha256.map(JSONValue.string) ?? .null
            object["grants"] = .array((settings?.pluginSettings(plugin.id).grants ?? []).map { .string($0.description) })
            object["stats"] = (try? store.stats(skillID: skill.id)).map(RecordJSON.stats) ?? .null
            object["recent_calls"] = .array(
                ((try? store.calls(matching: TraceFilter(skillID: skill.id, limit: 20))) ?? []).map(RecordJSON.call))
            return .object(object)
        }
        if catalog.instruction(id) != nil {
            let skill = try host.instructionSkill(id)
            var object = skill.detailJSON.objectValue ?? [:]
            object["grants"] = .array((settings?.pluginSettings(skill.name).grants ?? []).map { .string($0.description) })
            return .object(object)
        }
        throw WebRefusal(404, "no plugin or skill \"\(id)\"; \(catalog.didYouMean(id, among: [.plugin, .skill, .instruction]))pick one from the list")
    }

    /// Enables or disables `id` as `skillhost enable`/`disable` does: the change and its note.
    func setEnabled(_ id: String, _ enabled: Bool) throws -> JSONValue {
        do {
            let changes = try host.setEnabled([id], enabled)
            return [
                "changes": .array(changes.map { change in
                    ["kind": .string(change.kind), "id": .string(change.id), "enabled": .bool(enabled),
                     "note": change.note.map(JSONValue.string) ?? .null]
                })
            ]
        } catch {
            throw WebRefusal(error.kind == .notFound ? 404 : 500, error.message)
        }
    }
}
