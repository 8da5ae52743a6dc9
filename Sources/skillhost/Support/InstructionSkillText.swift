import SkillHostCore
import SkillJSON

/// How `list` and `inspect` show instruction skills to people.
enum InstructionSkillText {
    /// The instruction skills table printed under the plugins by `list`.
    static func table(_ records: [InstructionSkillRecord]) -> String {
        let idWidth = max(17, records.map(\.id.count).max() ?? 0) + 2
        var lines = [CatalogTable.pad("INSTRUCTION SKILL", idWidth) + CatalogTable.pad("STATUS", 10) + "PATH"]
        for record in records {
            lines.append(CatalogTable.pad(record.id, idWidth) + CatalogTable.pad(record.status.rawValue, 10) + record.folder)
            if let error = record.error {
                lines.append("  ! " + error)
            } else if !record.description.isEmpty {
                lines.append("  " + String(record.description.prefix(100)).replacingNewlines())
            }
            if record.hasScripts { lines.append("  scripts: " + record.scripts.text + " (skillhost set \(record.id) permission|approval …)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `inspect ID` of an instruction skill: frontmatter, body size, files with SHA-256.
    static func describe(_ skill: InstructionSkill) -> String {
        let json = skill.detailJSON
        var lines = ["instruction skill \(skill.name)", "  path:        \(skill.folder)", "  frontmatter:"]
        if let object = skill.frontmatter.objectValue {
            for (key, value) in object {
                let text = value.stringValue ?? value.serialized()
                lines.append("    \(key): \(text.replacingNewlines())")
            }
        }
        lines.append("  body:        \(json["body_lines"]?.intValue ?? 0) lines, about \(json["body_tokens"]?.intValue ?? 0) tokens")
        lines.append("  files:")
        for file in skill.files { lines.append("    \(file.sha256)  \(file.size)  \(file.path)") }
        return lines.joined(separator: "\n")
    }
}

extension InstructionSkillText {
    /// The ids and names of every tool an `allowed-tools` entry may name: the catalog's plugin skills and the
    /// built-in instruction and script tools.
    static func toolNames(_ catalog: Catalog) -> Set<String> {
        var names: Set<String> = ["activate_skill", "read_skill_file", ScriptPolicy.toolID]
        for plugin in catalog.plugins { for skill in plugin.skills { names.formUnion(AllowedTools.names(skill.id)) } }
        return names
    }

    /// `inspect`'s lines for `allowed-tools` ("" when the skill has none).
    static func lines(_ allowed: AllowedTools) -> String {
        guard !allowed.entries.isEmpty else { return "" }
        let width = (allowed.entries.map(\.text.count).max() ?? 0) + 2
        return "\n  allowed-tools: pre-approved while the skill is active (no question; never more than the sandbox allows)"
            + allowed.entries.map { "\n    " + CatalogTable.pad($0.text, width) + "→ " + $0.mapping }.joined()
    }

    /// `inspect --json`'s `allowed_tools`: `[{"entry", "maps_to"} | {"entry", "ignored"}]`.
    static func json(_ allowed: AllowedTools) -> JSONValue {
        .array(allowed.entries.map { entry in
            entry.ignored.map { ["entry": .string(entry.text), "ignored": .string($0)] }
                ?? ["entry": .string(entry.text), "maps_to": .string(entry.mapping)]
        })
    }
}

extension String {
    /// The text on one line (line breaks as spaces).
    func replacingNewlines() -> String { String(map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
}
