import SkillJSON

extension PluginRecord {
    /// The registry's `sandbox` mode for this plugin, or the automatic one.
    public var sandboxMode: SandboxMode { settings.sandbox ?? .automatic }

    /// What the plugin may do once the registry had its say (manifest narrowed, plus grants); nil without a
    /// manifest.
    public var effectiveCapabilities: PluginCapabilities? {
        manifest.map { SandboxPolicy.effectiveCapabilities(declared: $0.capabilities, settings: settings) }
    }

    /// The sandbox in one short word for `list`: `required`, `best-effort`, `off`, or `best-effort (no
    /// Landlock)` on a kernel without it.
    public var sandboxLabel: String {
        let mode = sandboxMode
        if mode != .off, settings.isolation == .inprocess { return "off (inprocess)" }
        if mode != .off, KernelSandbox.landlockABI == 0 { return "\(mode.rawValue) (no Landlock)" }
        return mode.rawValue
    }

    /// `inspect`'s lines about the sandbox: mode, what the manifest declares, the registry's narrowing and
    /// grants, the result, and what the kernel can enforce.
    public var sandboxLines: [String] {
        guard let manifest else { return [] }
        func words(_ capabilities: PluginCapabilities) -> String {
            let list = capabilities.capabilities.map(\.description)
            return list.isEmpty ? "data folder only" : "data folder, " + list.joined(separator: ", ")
        }
        var lines = ["  sandbox:     \(sandboxLabel) — \(KernelSandbox.summary)",
                     "  declares:    \(words(manifest.capabilities))"]
        if let limit = settings.capabilityLimit { lines.append("  narrowed to: \(words(limit)) (registry)") }
        if !settings.grants.isEmpty { lines.append("  granted:     \(settings.grants.map(\.description).joined(separator: ", ")) (skillhost grant)") }
        if let effective = effectiveCapabilities {
            lines.append("  may:         \(words(effective))")
            let asked = manifest.capabilities.environment.filter { !effective.environment.contains($0) }
            if !asked.isEmpty {
                lines.append("  asks for:    \(asked.map { "env:\($0)" }.joined(separator: ", ")) (not passed until you run 'skillhost grant \(id) env:NAME')")
            }
            lines.append("  enforced:    \(sandboxMode == .off ? "nothing (sandbox off)" : KernelSandbox.enforcement(of: effective))")
        }
        lines.append("  layers:      \(layersText)")
        return lines
    }

    /// Which layers of the sandbox hold for this plugin on this machine, in words.
    var layersText: String {
        if settings.isolation == .inprocess { return "none: the plugin runs inside the host (isolation \"inprocess\")" }
        if sandboxMode == .off { return "none: sandbox off in the registry (a session of its own and no inherited environment only)" }
        return KernelSandbox.layers
    }

    /// The sandbox as JSON for `inspect --json`.
    public var sandboxJSON: JSONValue {
        var object: JSONObject = ["mode": .string(sandboxMode.rawValue), "landlock_abi": .int(Int64(KernelSandbox.landlockABI))]
        if let manifest { object["declared"] = manifest.capabilities.json }
        if let limit = settings.capabilityLimit { object["narrowed"] = limit.json }
        object["grants"] = .array(settings.grants.map { .string($0.description) })
        if let effective = effectiveCapabilities {
            object["effective"] = effective.json
            object["enforced"] = .string(sandboxMode == .off ? "nothing (sandbox off)" : KernelSandbox.enforcement(of: effective))
        }
        let sandboxed = sandboxMode != .off && settings.isolation == .process
        object["layers"] = [
            "namespaces": .bool(sandboxed && KernelSandbox.namespaces.available),
            "private_proc": .bool(sandboxed && KernelSandbox.namespaces.privateProc),
            "landlock": .bool(sandboxed && KernelSandbox.landlockABI > 0),
            "seccomp": .bool(sandboxed),
            "summary": .string(layersText),
        ]
        return .object(object)
    }
}
