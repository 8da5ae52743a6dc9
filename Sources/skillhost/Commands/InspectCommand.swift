import SkillHostCore
import SkillJSON
import SkillWorkflows

/// `skillhost inspect ID [--json]`: everything about one plugin or skill.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show one plugin or skill in full"
    static let help = """
        usage: skillhost inspect ID [--json] [--state DIR]

        Shows a plugin (version, description, status, skills) or a skill (description, parameter schema,
        permission, timeout, rate limit, idempotent, examples, plugin and path). IDs are normalized first (case,
        invisible characters, fullwidth forms). No plugin code runs for unchanged files. For a skill, also
        its recorded calls: count, failures, p50/p95 duration and the five most recent (docs/history.md).

        Options:
          --json    print the plugin's or skill's JSON object

        Exit codes: \(ExitCode.notFound) when no plugin or skill has that id.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: HistoryOptions.options)
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one ID") }
        let id = parsed.positionals[0]
        // An installed workflow (docs/workflows.md).
        if id.hasPrefix(InstalledWorkflows.prefix) { return try await WorkflowCommand.inspect(id, parsed) }
        // An MCP server's skill (SERVER:PATH; the Skills extension).
        if let found = try await MCPSkillText.inspect(id, parsed: parsed, host: HostOptions.host(parsed)) {
            print(parsed.has("--json") ? found.json.serialized(options: .prettyPrinted) : found.text)
            return ExitCode.success
        }
        let catalog = try HostOptions.host(parsed).catalog()
        if catalog.plugin(id) == nil, catalog.skill(id) == nil,
            let found = try await MCPSourceText.inspect(id, parsed: parsed, host: HostOptions.host(parsed))
        {
            print(parsed.has("--json") ? found.json.serialized(options: .prettyPrinted) : found.text)
            return ExitCode.success
        }
        let json: JSONValue
        let text: String
        if let plugin = catalog.plugin(id) {
            json = plugin.inspectJSON
            text = describe(plugin)
        } else if let (skill, plugin) = catalog.skill(id) {
            let calls = SkillCallHistory.load(skill.id, parsed)
            // What the policy decided about this skill, or about its whole plugin.
            let notes = plugin.policyNotes.filter { $0.hasPrefix("skill \(skill.id) ") || !$0.hasPrefix("skill ") }
            json = calls.adding(to: skill.detailJSON).adding(policy: notes)
            text = describe(skill) + notes.map { "\n  policy:      " + $0 }.joined() + "\n" + calls.text
        } else if catalog.instruction(id) != nil {
            let host = HostOptions.host(parsed)
            let skill = try host.instructionSkill(id)
            // What its scripts may do beyond the sandbox's defaults (`skillhost grant`).
            let registry = try? host.registryStore.read()
            let grants = (registry?.pluginSettings(skill.name).grants ?? []).map(\.description)
            // What running its scripts needs (registry permission and approval; skillhost set).
            let policy = registry?.scriptPolicy(forSkill: skill.name) ?? .standard
            var object = skill.detailJSON.objectValue ?? [:]
            object["grants"] = .array(grants.map(JSONValue.string))
            let hasScripts = skill.files.contains { $0.path.hasPrefix("scripts/") }
            object["scripts"] = hasScripts ? policy.json : .null
            // `allowed-tools`: what it pre-approves while active, and the entries that name nothing we have.
            let allowed = AllowedTools(
                frontmatter: skill.frontmatter, knownTools: InstructionSkillText.toolNames(catalog),
                scripts: Set(skill.files.map(\.path).filter { $0.hasPrefix("scripts/") }))
            object["allowed_tools"] = InstructionSkillText.json(allowed)
            for warning in allowed.warnings(skill: skill.name) { ErrorReporter.printError("warning: " + warning) }
            json = .object(object)
            text = InstructionSkillText.describe(skill) + InstructionSkillText.lines(allowed)
                + (hasScripts ? "\n  scripts:     run sandboxed by run_skill_script; \(policy.text) (skillhost set \(skill.name) permission|approval …); grants: \(grants.isEmpty ? "none" : grants.joined(separator: ", ")) (skillhost grant)" : "")
        } else {
            throw HostError(.notFound, "no plugin or skill \"\(Identifier.normalize(id))\"; \(catalog.didYouMean(id, among: [.plugin, .skill, .instruction]))run 'skillhost list' to see the ids")
        }
        print(parsed.has("--json") ? json.serialized(options: .prettyPrinted) : text)
        return ExitCode.success
    }

    static func describe(_ plugin: PluginRecord) -> String {
        var lines = ["plugin \(plugin.id)", "  path:        \(plugin.path)", "  status:      \(plugin.status.rawValue)",
                     "  enabled:     \(plugin.enabled ? "yes" : "no")"]
        if let error = plugin.error { lines.append("  error:       \(error)") }
        lines.append("  publisher:   \(plugin.publisherText)")
        for note in plugin.policyNotes where note != plugin.error { lines.append("  policy:      \(note)") }
        if let manifest = plugin.manifest {
            lines += ["  name:        \(manifest.name)", "  version:     \(manifest.version) (ABI \(manifest.abiVersion))",
                      "  description: \(manifest.description)", "  isolation:   \(plugin.settings.isolation.rawValue)",
                      "  skills:"]
            lines += plugin.skills.map { "    \($0.id)  [\($0.permission.rawValue)\($0.enabled ? "" : ", off")]  \($0.title)" }
            lines += plugin.sandboxLines
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ skill: SkillDescription) -> String {
        var lines = ["skill \(skill.id): \(skill.title)", "  plugin:      \(skill.pluginID) (\(skill.pluginPath))",
                     "  enabled:     \(skill.enabled ? "yes" : "no")",
                     "  permission:  \(skill.permission.rawValue) (approval: \(skill.approval.rawValue))",
                     "  timeout:     \(SecondsText.format(skill.timeout)) s",
                     "  rate limit:  " + (skill.rateLimitPerMinute.map { "\($0) calls per minute" } ?? "none"),
                     "  idempotent:  \(skill.idempotent ? "yes" : "no")",
                     "  description: \(skill.description)",
                     "  parameters:  \(skill.parameters.serialized())"]
        if !skill.examples.isEmpty { lines.append("  examples:    " + skill.examples.joined(separator: " | ")) }
        if let summary = skill.summary { lines.append("  summary:     " + summary) }
        if let schema = skill.manifest.outputSchema { lines.append("  output:      " + schema.serialized()) }
        return lines.joined(separator: "\n")
    }
}

extension JSONValue {
    /// This object with a `policy` member: what the administrator's policy decided (inspect SKILL --json).
    fileprivate func adding(policy notes: [String]) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object["policy"] = .array(notes.map(JSONValue.string))
        return .object(object)
    }
}
