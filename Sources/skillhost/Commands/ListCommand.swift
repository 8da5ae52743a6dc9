import SkillHostCore
import SkillJSON
import SkillPosix

/// `skillhost list [--json]`: every plugin file with its status and skills.
enum ListCommand: Command {
    static let name = "list"
    static let summary = "list plugins and their skills with status"
    static let help = """
        usage: skillhost list [--json]

        Lists every .so file in the plugins folder with its status (ok, disabled, invalid, broken, denied), the
        reason when it is not usable, and its skills. Unchanged files come from the scan cache: no plugin
        code runs. Changed files are scanned in child processes. While nothing it depends on changed, the
        output comes from list_output.cache in the cache folder (docs/listing-cache.md).

        Options:
          --json    print {"plugins":[{"id","path","status","enabled","error","skills":[{"id","title",
                    "description","enabled","permission"}],"sandbox","publisher","policy"}]} (sandbox:
                    required, best-effort, off, with "(no Landlock)" or "(inprocess)" when that applies; null
                    without manifest; publisher: {"key_id","name","verified","problem"} of a package's
                    signature, null when unsigned; policy: what the administrator's policy decided, one
                    line per rule); with MCP servers in the registry also "mcp_servers":[{"name","status",
                    "enabled","error","transport","tools":[{"id","name","title","description","enabled",
                    "permission"}],"invalid":[{"name","reason"}]}]

        MCP servers (skillhost add-mcp) are listed in a third section; each enabled one is started, in its
        sandbox, to list its tools.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let json = parsed.has("--json")
        let folder = HostOptions.paths(parsed).plugins
        // The table says so itself; JSON has no place for it.
        if json, !Posix.exists(folder) {
            ErrorReporter.printError(
                "warning: the plugins folder \(folder) does not exist; create it and copy .so files into it, or pass --plugins DIR")
        }
        // From the listing cache while nothing the catalog depends on changed (docs/listing-cache.md).
        let output = try HostOptions.host(parsed).listing(format: json ? "list --json" : "list") { catalog in
            let text = json
                ? CatalogTable.addingSandbox(catalog.json, catalog).serialized(options: .prettyPrinted)
                : CatalogTable.render(catalog, pluginsFolder: folder)
            return Array((text + "\n").utf8)
        }
        var listing = String(decoding: output, as: UTF8.self)
        // MCP servers (the third section) are asked live: each enabled one is started, confined, for its tools.
        let host = HostOptions.host(parsed)
        if !(try host.mcpServers()).isEmpty {
            let backend = MCPSourceText.backend(parsed, host: host, base: EmptyBackend())
            let states = try await MCPSourceText.states(backend)
            defer { backend.shutdown() }
            if json, case .object(var root)? = try? JSONValue(parsing: output) {
                root["mcp_servers"] = MCPSourceText.json(states)
                listing = JSONValue.object(root).serialized(options: .prettyPrinted) + "\n"
            } else {
                listing += "\n" + MCPSourceText.table(states) + "\n"
            }
            // Their skills (the Skills extension), from skills/list only.
            await MCPSkillText.addListing(&listing, json: json, backend: backend)
        }
        // Installed workflows (docs/workflows.md) after them.
        print(await WorkflowCommand.listingWithWorkflows(listing, json: json, parsed), terminator: "")
        return ExitCode.success
    }
}

/// The human table of `list`.
enum CatalogTable {
    static func render(_ catalog: Catalog, pluginsFolder: String) -> String {
        // A project's skills not loaded (and the command that trusts it), a skill shadowing another.
        let notes = catalog.notes.map { "\nnote: " + $0 }.joined()
        return renderTables(catalog, pluginsFolder: pluginsFolder) + (notes.isEmpty ? "" : "\n" + notes)
    }

    static func renderTables(_ catalog: Catalog, pluginsFolder: String) -> String {
        if catalog.plugins.isEmpty && !catalog.instructions.isEmpty {
            return noPlugins(in: pluginsFolder) + "\n\n" + InstructionSkillText.table(catalog.instructions)
        }
        if catalog.plugins.isEmpty { return noPlugins(in: pluginsFolder) }
        var lines: [String] = []
        let idWidth = max(6, catalog.plugins.map(\.id.count).max() ?? 0,
                          catalog.plugins.flatMap(\.skills).map { $0.id.count + 2 }.max() ?? 0) + 2
        lines.append(pad("PLUGIN", idWidth) + pad("STATUS", 10) + pad("VERSION", 10) + "PATH")
        for plugin in catalog.plugins {
            lines.append(pad(plugin.id, idWidth) + pad(plugin.status.rawValue, 10)
                + pad(plugin.manifest?.version ?? "-", 10) + plugin.path)
            if let error = plugin.error { lines.append("  ! " + error) }
            if plugin.manifest != nil { lines.append("  sandbox: " + plugin.sandboxLabel) }
            if plugin.signature != nil { lines.append("  publisher: " + plugin.publisherText) }
            for note in plugin.policyNotes where note != plugin.error { lines.append("  policy: " + note) }
            for skill in plugin.skills {
                let state = skill.enabled ? "on" : "off"
                lines.append(pad("  " + skill.id, idWidth) + pad(state, 10) + pad(skill.permission.rawValue, 10) + skill.title)
            }
        }
        if !catalog.instructions.isEmpty { lines += ["", InstructionSkillText.table(catalog.instructions)] }
        return lines.joined(separator: "\n")
    }

    /// What an empty listing says: which folder was read, and how to put plugins there.
    static func noPlugins(in folder: String) -> String {
        let fix = "install one with 'skillhost install FILE.so' (or copy .so files into it), or use another folder with "
            + "--plugins DIR or SKILLHOST_PLUGINS"
        if !Posix.exists(folder) { return "No plugins: the plugins folder \(folder) does not exist. Create it and \(fix)." }
        return "No plugins in \(folder): \(fix)."
    }

    /// The catalog JSON with each plugin's `sandbox` label added.
    static func addingSandbox(_ json: JSONValue, _ catalog: Catalog) -> JSONValue {
        guard case .object(var root) = json, case .array(let plugins)? = root["plugins"] else { return json }
        root["plugins"] = .array(plugins.map { entry in
            guard case .object(var object) = entry, let id = object["id"]?.stringValue else { return entry }
            let plugin = catalog.plugin(id)
            object["sandbox"] = plugin?.manifest == nil ? .null : .string(plugin!.sandboxLabel)
            object["publisher"] = plugin?.publisherJSON ?? .null
            object["policy"] = plugin?.policyJSON ?? []
            return .object(object)
        })
        return .object(root)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
