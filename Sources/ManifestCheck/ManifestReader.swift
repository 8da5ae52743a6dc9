import SkillContract
import SkillJSON

/// Reads a manifest document member by member, collecting a ``ManifestProblem`` for everything wrong
/// instead of stopping at the first. Used by ``ManifestValidator``.
struct ManifestReader {
    let document: JSONValue
    var problems: [ManifestProblem] = []
    /// Advice: what the host accepts but makes a skill harder to use well (see ``ManifestValidator/check(_:)``).
    var advice: [ManifestProblem] = []
    /// Whether the checks beyond the typed read run (id grammar, duplicates, semver, compiling each skill's
    /// `parameters`); off only for a document that already passed them all under the same rules
    /// (``ManifestValidator/readChecked(_:file:)``).
    var checksRules = true

    init(document: JSONValue) { self.document = document }

    /// The manifest, or nil when a problem makes it unusable (see ``problems``).
    mutating func read() -> PluginManifest? {
        guard case .object(let root) = document else {
            problem("", "must be a JSON object, got \(document.typeName)")
            return nil
        }
        let rawID = string(root, "id", "")
        let id = rawID ?? ""
        if rawID != nil, checksRules { checkGrammar(id, "/id", nil) }
        let name = string(root, "name", "")
        let version = string(root, "version", "")
        if let version, checksRules, !SemanticVersion.isValid(version) {
            problem("/version", "\"\(version)\" is not a semantic version; write MAJOR.MINOR.PATCH, e.g. \"1.0.0\"")
        }
        let abiVersion = string(root, "abi_version", "")
        if let abiVersion { checkABIVersion(abiVersion) }
        if root["min_host_abi"] != nil, let needed = string(root, "min_host_abi", "") {
            let issue = SkillDefaults.hostABIProblem(needed)
            if !issue.isEmpty { problem("/min_host_abi", issue) }
        }
        let description = string(root, "description", "")
        let threadSafe = bool(root, "thread_safe", "", default: false)
        var skills: [SkillManifest] = []
        if let list = root["skills"] {
            if case .array(let elements) = list {
                if elements.isEmpty { problem("/skills", "must list at least one skill") }
                for (index, element) in elements.enumerated() {
                    if let skill = readSkill(element, at: "/skills/\(index)", pluginID: id) { skills.append(skill) }
                }
            } else {
                problem("/skills", "must be an array of skill objects, got \(list.typeName)")
            }
        } else {
            problem("", "is missing the required member \"skills\"")
        }
        if checksRules { checkDuplicates(skills, in: root) }
        let capabilities = readCapabilities(root["capabilities"], at: "/capabilities", skill: nil) ?? .minimal
        checkSkillCapabilities(skills, within: capabilities)
        guard problems.isEmpty, let name, let version, let abiVersion, let description else { return nil }
        return PluginManifest(
            id: id, name: name, version: version, abiVersion: abiVersion, description: description,
            threadSafe: threadSafe, skills: skills, document: document, capabilities: capabilities)
    }

    private mutating func readSkill(_ value: JSONValue, at pointer: String, pluginID: String) -> SkillManifest? {
        guard case .object(let object) = value else {
            problem(pointer, "must be a skill object, got \(value.typeName)")
            return nil
        }
        let id = string(object, "id", pointer)
        if let id {
            if checksRules { checkGrammar(id, pointer + "/id", id) }
            if checksRules, Identifier.isValid(pluginID), Identifier.isValid(id) {
                let issue = Identifier.skillIDProblem(id, pluginID: pluginID)
                if !issue.isEmpty { problem(pointer + "/id", skill: id, issue) }
            }
        }
        let title = string(object, "title", pointer, skill: id)
        let description = string(object, "description", pointer, skill: id)
        var permission: Permission?
        if let raw = string(object, "permission", pointer, skill: id) {
            permission = Permission(rawValue: raw)
            if permission == nil {
                problem(pointer + "/permission", skill: id,
                        "\"\(raw)\" is not a permission; use one of \(Permission.spelledOut)")
            }
        }
        var timeout = SkillDefaults.timeout
        if let value = object["timeout"] {
            if let fault = SkillDefaults.timeoutProblem(value) {
                problem(pointer + "/timeout", skill: id, fault)
            } else if let seconds = value.doubleValue {
                timeout = seconds
            }
        }
        let idempotent = bool(object, "idempotent", pointer, skill: id, default: nil)
        var examples: [String] = []
        if let value = object["examples"] {
            if case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) {
                examples = items.compactMap(\.stringValue)
            } else {
                problem(pointer + "/examples", skill: id, "must be an array of strings (example utterances)")
            }
        }
        var summary: String?
        if let value = object["summary"] {
            if case .string(let text) = value, !text.allSatisfy(\.isWhitespace) {
                summary = text
            } else {
                problem(pointer + "/summary", skill: id,
                        "must be a non-empty string, a result summary template like \"It is {time}.\", got \(value.serialized())")
            }
        }
        let parameters = object["parameters"]
        if let parameters, checksRules {
            for message in ManifestSchema.parameterProblems(parameters) {
                problem(pointer + "/parameters" + message.pointer, skill: id, message.message)
            }
            checkExamples(examples, parameters: parameters, at: pointer, skill: id)
        } else if parameters == nil {
            problem(pointer, skill: id, "is missing the required member \"parameters\" (a JSON Schema object)")
        }
        let outputSchema = object["output_schema"]
        if let outputSchema, checksRules {
            for message in ManifestSchema.objectSchemaProblems(outputSchema, member: "output_schema", noun: "result") {
                problem(pointer + "/output_schema" + message.pointer, skill: id, message.message)
            }
        }
        let capabilities = readCapabilities(object["capabilities"], at: pointer + "/capabilities", skill: id)
        guard let id, let title, let description, let permission, let parameters else { return nil }
        return SkillManifest(
            id: id, title: title, description: description, parameters: parameters, permission: permission,
            timeout: timeout, idempotent: idempotent, examples: examples, summary: summary, capabilities: capabilities,
            outputSchema: outputSchema)
    }

    private mutating func checkGrammar(_ id: String, _ pointer: String, _ skill: String?) {
        let issue = Identifier.problem(with: id)
        if !issue.isEmpty {
            problem(pointer, skill: skill, "id \"\(id.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())\" \(issue)")
        }
    }

    private mutating func checkABIVersion(_ text: String) {
        let issue = SkillDefaults.abiVersionProblem(text)
        if !issue.isEmpty { problem("/abi_version", issue) }
    }

    /// Each example's `{slot}` must name a parameter (an error: the planner would fill nothing); an
    /// example that leaves a required parameter unfilled is advice.
    private mutating func checkExamples(_ examples: [String], parameters: JSONValue, at pointer: String, skill: String?) {
        let properties = parameters["properties"]?.objectValue
        let required = parameters["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for (index, example) in examples.enumerated() {
            let slots = ExampleSlots.names(in: example)
            for slot in slots where properties?[slot] == nil {
                problem(pointer + "/examples/\(index)", skill: skill,
                        "example \"\(example)\" names {\(slot)}, which is not a parameter; use one of the names in \"properties\"")
            }
            for name in required where !slots.contains(name) {
                advice.append(ManifestProblem(pointer: pointer + "/examples/\(index)", skillID: skill,
                    message: "example \"\(example)\" does not fill required parameter {\(name)}; add the slot so the offline planner can fill it"))
            }
        }
    }

    private mutating func checkDuplicates(_ skills: [SkillManifest], in root: JSONObject) {
        var firstIndex: [String: Int] = [:]
        guard case .array(let elements)? = root["skills"] else { return }
        for (index, element) in elements.enumerated() {
            guard let raw = element["id"]?.stringValue else { continue }
            let id = raw
            if let first = firstIndex[id] {
                problem("/skills/\(index)/id", skill: id,
                        "duplicate skill id: \"\(raw)\" is also the id of /skills/\(first)/id; give each skill its own id")
            } else {
                firstIndex[id] = index
            }
        }
    }

    // MARK: - Typed members

    private mutating func string(
        _ object: JSONObject, _ key: String, _ pointer: String, skill: String? = nil
    ) -> String? {
        guard let value = object[key] else {
            problem(pointer, skill: skill, "is missing the required member \"\(key)\"")
            return nil
        }
        guard case .string(let text) = value else {
            problem(pointer + "/" + key, skill: skill, "must be a string, got \(value.typeName)")
            return nil
        }
        if text.allSatisfy(\.isWhitespace) {
            problem(pointer + "/" + key, skill: skill, "must not be empty")
            return nil
        }
        return text
    }

    /// A boolean member; a nil `fallback` makes it required. Returns false after recording a problem.
    private mutating func bool(
        _ object: JSONObject, _ key: String, _ pointer: String, skill: String? = nil, default fallback: Bool?
    ) -> Bool {
        guard let value = object[key] else {
            if let fallback { return fallback }
            problem(pointer, skill: skill, "is missing the required member \"\(key)\" (true or false)")
            return false
        }
        guard case .bool(let flag) = value else {
            problem(pointer + "/" + key, skill: skill, "must be true or false, got \(value.serialized())")
            return false
        }
        return flag
    }

    private mutating func problem(_ pointer: String, skill: String? = nil, _ message: String) {
        problems.append(ManifestProblem(pointer: pointer, skillID: skill, message: message))
    }
}

extension ManifestReader {
    /// Reads an optional `capabilities` member, recording its problems.
    fileprivate mutating func readCapabilities(_ value: JSONValue?, at pointer: String, skill: String?) -> PluginCapabilities? {
        guard let value else { return nil }
        let (capabilities, found) = PluginCapabilities.read(value, at: pointer)
        for item in found { problems.append(ManifestProblem(pointer: item.pointer, skillID: skill, message: item.message)) }
        return capabilities
    }

    /// A skill may narrow its plugin's capabilities, never widen them.
    fileprivate mutating func checkSkillCapabilities(_ skills: [SkillManifest], within plugin: PluginCapabilities) {
        let elements = document["skills"]?.arrayValue ?? []
        for skill in skills {
            guard let own = skill.capabilities, !plugin.covers(own) else { continue }
            let extra = own.capabilities.filter { !plugin.covers(PluginCapabilities.minimal.adding([$0])) }
            let index = elements.firstIndex { $0["id"]?.stringValue == skill.id } ?? 0
            problems.append(ManifestProblem(
                pointer: "/skills/\(index)/capabilities", skillID: skill.id,
                message: "asks for \(extra.map(\.description).joined(separator: ", ")) beyond the plugin's capabilities; declare it in the plugin's \"capabilities\" too, or remove it here"))
        }
    }
}
