import SkillJSON

extension AdminPolicy {
    /// The members a policy file may have.
    static let members = ["version", "block", "require_approval", "require_sandbox", "allow_publishers"]
    /// The members a rule may have.
    static let ruleMembers = ["name", "reason", "plugin", "skill", "instruction_skill", "mcp_source", "versions", "sha256", "publisher"]

    /// Adds the rules of one parsed file. Strict: an unknown member, a wrong type or a rule that selects
    /// nothing is a failure (a policy that silently ignored a typo would allow what it meant to block).
    mutating func read(_ document: JSONValue, file: String, locator: JSONLineLocator) throws(PolicyFailure) {
        guard case .object(let root) = document else {
            throw PolicyFailure("the policy must be a JSON object like {\"block\": [...]}, got \(document.typeName)")
        }
        for key in root.keys where !Self.members.contains(key) {
            throw PolicyFailure("unknown member \"\(key)\"; a policy has \(Self.members.joined(separator: ", "))", at: "/" + JSONPointer.escape(key))
        }
        if let version = root["version"], version.intValue != 1 {
            throw PolicyFailure("version must be 1, got \(version.serialized())", at: "/version")
        }
        block += try rules(root["block"], list: "block", file: file, locator: locator)
        requireApproval += try rules(root["require_approval"], list: "require_approval", file: file, locator: locator)
        requireSandbox += try rules(root["require_sandbox"], list: "require_sandbox", file: file, locator: locator)
        if let value = root["allow_publishers"] {
            let pointer = "/allow_publishers"
            guard case .array(let entries) = value else {
                throw PolicyFailure("allow_publishers must be an array of {\"name\", \"key\"} objects, got \(value.typeName)", at: pointer)
            }
            var keys: [TrustedPublisher] = []
            for (index, entry) in entries.enumerated() {
                let at = pointer + "/\(index)"
                guard let line = entry["key"]?.stringValue, let key = try? MinisignPublicKey(parsing: line, source: at) else {
                    throw PolicyFailure("each allowed publisher is {\"name\": \"Acme\", \"key\": \"<the key line of their minisign .pub file>\"}", at: at)
                }
                if let name = entry["name"], name.stringValue == nil { throw PolicyFailure("name must be a string", at: at + "/name") }
                keys.append(TrustedPublisher(key: key, name: entry["name"]?.stringValue ?? key.id))
            }
            let line = locator.position(of: pointer)?.line ?? 1
            // Two files with lists: a plugin must pass both (the intersection).
            if let (earlier, label) = allowedPublishers {
                let kept = keys.filter { key in earlier.contains { $0.key == key.key } }
                allowedPublishers = (kept, label + ", " + "\(file):\(line) (allow_publishers)")
            } else {
                allowedPublishers = (keys, "\(file):\(line) (allow_publishers)")
            }
        }
    }

    private func rules(_ value: JSONValue?, list: String, file: String, locator: JSONLineLocator) throws(PolicyFailure) -> [PolicyRule] {
        guard let value else { return [] }
        guard case .array(let entries) = value else {
            throw PolicyFailure("\(list) must be an array of rules like {\"plugin\": \"weather\", \"versions\": \"<1.2.0\"}, got \(value.typeName)", at: "/" + list)
        }
        var rules: [PolicyRule] = []
        for (index, entry) in entries.enumerated() {
            let pointer = "/\(list)/\(index)"
            rules.append(try rule(entry, list: list, pointer: pointer, file: file, line: locator.position(of: pointer)?.line ?? 1))
        }
        return rules
    }

    private func rule(_ value: JSONValue, list: String, pointer: String, file: String, line: Int) throws(PolicyFailure) -> PolicyRule {
        guard case .object(let object) = value else {
            throw PolicyFailure("a rule is an object like {\"plugin\": \"weather\"}, got \(value.typeName)", at: pointer)
        }
        for key in object.keys where !Self.ruleMembers.contains(key) {
            throw PolicyFailure("unknown member \"\(key)\" in a rule; a rule has \(Self.ruleMembers.joined(separator: ", "))", at: pointer + "/" + JSONPointer.escape(key))
        }
        func text(_ key: String) throws(PolicyFailure) -> String? {
            guard let member = object[key] else { return nil }
            guard let string = member.stringValue, !string.isEmpty else {
                throw PolicyFailure("\(key) must be a non-empty string, got \(member.serialized())", at: pointer + "/" + key)
            }
            return string
        }
        func pattern(_ key: String) throws(PolicyFailure) -> String? {
            guard let raw = try text(key) else { return nil }
            // Ids compare normalized; '*' stays a wildcard.
            return raw.split(separator: "*", omittingEmptySubsequences: false).map { Identifier.normalize(String($0)) }.joined(separator: "*")
        }
        var rule = PolicyRule(
            list: list, file: file, pointer: pointer, line: line, name: try text("name"), reason: try text("reason"),
            kind: .plugin, plugin: try pattern("plugin"), skill: try pattern("skill"),
            instructionSkill: try pattern("instruction_skill"), mcpSource: try pattern("mcp_source"))
        if let versions = try text("versions") {
            do { rule.versions = try VersionRange(versions) } catch { throw PolicyFailure(error.reason, at: pointer + "/versions") }
        }
        if let digest = try text("sha256") {
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
                throw PolicyFailure("sha256 must be 64 hex digits (sha256sum FILE), got \"\(digest)\"", at: pointer + "/sha256")
            }
            rule.sha256 = digest.lowercased()
        }
        if let key = try text("publisher") {
            guard let id = MinisignText.normalizedKeyID(key) else {
                throw PolicyFailure("publisher must be a key id of up to 16 hex digits (as 'skillhost keys list' shows it), got \"\(key)\"", at: pointer + "/publisher")
            }
            rule.publisher = id
        }
        let pluginFields = [rule.plugin, rule.skill, rule.versions?.description, rule.publisher].contains { $0 != nil }
        if rule.instructionSkill != nil || rule.mcpSource != nil {
            guard !pluginFields, rule.instructionSkill == nil || rule.mcpSource == nil else {
                throw PolicyFailure("a rule selects plugins and skills, instruction skills or MCP sources: not several at once", at: pointer)
            }
            if rule.mcpSource != nil, rule.sha256 != nil {
                throw PolicyFailure("an MCP source is selected by id only", at: pointer + "/sha256")
            }
            rule.kind = rule.instructionSkill != nil ? .instructionSkill : .mcpSource
        } else if !pluginFields, rule.sha256 == nil {
            throw PolicyFailure("the rule selects nothing: give plugin, skill, instruction_skill, mcp_source, versions, sha256 or publisher", at: pointer)
        }
        switch list {
        case "require_sandbox":
            if rule.skill != nil || rule.kind == .instructionSkill {
                throw PolicyFailure("require_sandbox applies to plugins and MCP sources (a sandbox holds a whole plugin), not to skills or instruction skills", at: pointer)
            }
        case "require_approval":
            if rule.kind == .instructionSkill {
                throw PolicyFailure("require_approval applies to plugins, skills and MCP sources (an instruction skill is read, not called)", at: pointer)
            }
        default: break
        }
        return rule
    }
}
