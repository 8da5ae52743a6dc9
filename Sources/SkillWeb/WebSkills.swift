import Foundation
import SkillCalls
import SkillHTTP
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows

/// The Skills tab's answers: the catalog as `skillhost list --json` shows it, a plugin's or skill's detail
/// as `inspect --json` shows it plus what the tab adds (sandbox, grants, trust pin, recent calls with p50
/// and p95), and the toggle through the host's one locked, atomic registry write (`enable`/`disable`).
/// MCP servers and workflows: `WebSkills+Sources.swift`.
struct WebSkills {
    let host: SkillHost
    let store: HistoryStore
    /// The registry's MCP servers (nil: none shown).
    var sources: MCPSourceBackend?
    /// The installed workflows (nil: none shown).
    var workflows: InstalledWorkflows?
    /// The skills a workflow's steps may call (to say why one cannot run).
    var tools: (any SkillBackend)?

    /// The Skills tab of `setup`.
    init(_ setup: WebChatSetup) {
        host = setup.host
        store = setup.store
        sources = setup.mcpSources
        workflows = setup.workflows
        tools = setup.tools
    }

    /// Every plugin, its skills, every instruction skill, MCP server (`mcp_servers`) and workflow
    /// (`workflows`), each with status and whether it is enabled.
    /// Blocks its thread while MCP servers start: call it from a thread of its own.
    func list() -> JSONValue {
        guard case .object(var root) = plugins() else { return plugins() }
        switch servers() {
        case .array(let servers): root["mcp_servers"] = .array(servers)
        case let failed:  // the registry's mcp_servers cannot be read: the tab says why
            root["mcp_servers"] = []
            root["error"] = root["error"] ?? failed["error"] ?? .null
        }
        root["workflows"] = workflowList()
        return .object(root)
    }

    /// Plugins and instruction skills as `list --json` shows them.
    private func plugins() -> JSONValue {
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

    /// The detail of a plugin, plugin skill, instruction skill, MCP server or tool, or workflow. Blocks its
    /// thread while an MCP server starts: call it from a thread of its own.
    func detail(_ rawID: String) throws -> JSONValue {
        let id = Identifier.normalize(rawID)
        if let workflow = workflowDetail(id) { return workflow }
        if let source = try sourceDetail(id) { return source }
        let catalog = try host.catalog()
        let settings = try? host.registryStore.read()
        if let plugin = catalog.plugin(id) {
            guard case .object(var object) = plugin.inspectJSON else { return plugin.inspectJSON }
            object["trust_pin"] = settings?.pluginSettings(plugin.id).sha256.map(JSONValue.string) ?? .null
            object["grants"] = .array((settings?.pluginSettings(plugin.id).grants ?? []).map { .string($0.description) })
            return .object(object)
        }
        if let (skill, plugin) = catalog.skill(id) {
            guard case .object(var object) = skill.detailJSON else { return skill.detailJSON }
            object["sandbox"] = plugin.sandboxJSON
            object["trust_pin"] = settings?.pluginSettings(plugin.id).sha256.map(JSONValue.string) ?? .null
            object["grants"] = .array((settings?.pluginSettings(plugin.id).grants ?? []).map { .string($0.description) })
            addCalls(of: skill.id, to: &object)
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

    /// Adds the instruction skill in an uploaded `.zip` or `.skill` archive as `skillhost add` does (the
    /// host's `addSkill`: unpacked beside the skills folder, validated, renamed into place or refused).
    /// The body is the archive; `?name=` its file name; the type `application/zip` or
    /// `application/octet-stream` (which a cross-site form cannot send).
    func add(_ request: HTTPServerRequest) throws -> JSONValue {
        let type = (request.fields["content-type"] ?? "").lowercased()
        guard type.hasPrefix("application/zip") || type.hasPrefix("application/octet-stream") else {
            throw WebRefusal(415, "Content-Type '\(WebAccess.shown(type))' is refused; upload the archive as application/zip")
        }
        let name = WebAccess.query(request.target, "name") ?? ""
        let allowed = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }
        guard allowed, !name.hasPrefix("."), name.hasSuffix(".zip") || name.hasSuffix(".skill") else {
            throw WebRefusal(400, "the file name '\(WebAccess.shown(name))' is not a .zip or .skill archive's (letters, digits, '.', '_', '-'); pick an Agent Skills archive")
        }
        guard !request.body.isEmpty else { throw WebRefusal(400, "\(name) is empty; pick the archive again") }
        let folder = NSTemporaryDirectory() + "skillhost-ui-upload-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(request.body).write(to: URL(fileURLWithPath: folder + "/" + name))
        } catch {
            throw WebRefusal(500, "cannot keep the upload in \(folder): \(error.localizedDescription)")
        }
        do {
            let record = try host.addSkill(from: folder + "/" + name)
            return ["added": .string(record.id), "folder": .string(record.folder)]
        } catch {
            let message = error.message.replacingOccurrences(of: folder + "/", with: "")
            throw WebRefusal(error.kind == .registry ? 409 : 400, message)
        }
    }

    /// Enables or disables `id` as `skillhost enable`/`disable` does (an MCP server or tool without starting
    /// it, else a plugin, skill or instruction skill): the change and its note.
    func setEnabled(_ id: String, _ enabled: Bool) throws -> JSONValue {
        do {
            let (sourceChanges, rest) = try host.setMCPEnabled([id], enabled)
            let changes = sourceChanges + (rest.isEmpty ? [] : try host.setEnabled(rest, enabled))
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
