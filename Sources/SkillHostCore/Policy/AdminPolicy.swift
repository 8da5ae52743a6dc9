import SkillJSON

/// The administrator's policy (docs/policy.md): read-only files the user's registry cannot override, that
/// block plugins, skills, instruction skills and MCP sources, force approval or the sandbox, and can allow
/// only listed publishers. `/etc/skillhost/policy.json` always applies when it exists; `SKILLHOST_POLICY`
/// names another file that applies too (each file can only take away, so neither can undo the other).
///
/// A file that cannot be read or does not parse blocks everything it could have governed (``failure``), with
/// one line naming the file and line.
public struct AdminPolicy: Sendable, Equatable {
    /// The system-wide policy file.
    public static let systemFile = "/etc/skillhost/policy.json"

    /// The policy files of a process with this environment: the system one, and `SKILLHOST_POLICY`'s.
    public static func files(environment: [String: String]) -> [String] {
        var files = [systemFile]
        if let named = environment["SKILLHOST_POLICY"], !named.isEmpty, named != systemFile {
            files.append(Posix.absolutePath(named))
        }
        return files
    }

    /// The files that exist and were read.
    public var sources: [String] = []
    /// Rules that block what they select.
    public var block: [PolicyRule] = []
    /// Rules whose skills always need approval (registry `approval` cannot say `allow`).
    public var requireApproval: [PolicyRule] = []
    /// Rules whose plugins run sandboxed (`required`, in a worker), whatever the registry says.
    public var requireSandbox: [PolicyRule] = []
    /// The only publishers whose plugins run (nil: any, unsigned ones included), with where the list is.
    public var allowedPublishers: (keys: [TrustedPublisher], label: String)?
    /// Why a file could not be used: then everything is blocked with this line.
    public var failure: String?

    /// No policy at all.
    public init() {}

    public static func == (left: AdminPolicy, right: AdminPolicy) -> Bool {
        left.sources == right.sources && left.block == right.block && left.requireApproval == right.requireApproval
            && left.requireSandbox == right.requireSandbox && left.failure == right.failure
            && left.allowedPublishers?.keys == right.allowedPublishers?.keys
            && left.allowedPublishers?.label == right.allowedPublishers?.label
    }

    /// Whether there is anything to apply.
    public var isEmpty: Bool {
        failure == nil && block.isEmpty && requireApproval.isEmpty && requireSandbox.isEmpty && allowedPublishers == nil
    }

    /// Whether a rule asks for plugin files' SHA-256 (so it is computed only then).
    var usesDigests: Bool { (block + requireApproval + requireSandbox).contains { $0.sha256 != nil } }

    /// Reads the policy from `files` (missing ones are skipped).
    public static func load(files: [String]) -> AdminPolicy {
        var policy = AdminPolicy()
        for file in files {
            let bytes: [UInt8]
            do {
                bytes = try Posix.readFile(atPath: file, limit: 4 << 20)
            } catch where error.kind == .notFound {
                continue
            } catch {
                policy.failure = failureLine(file, nil, "cannot be read (\(error.message))")
                return policy
            }
            policy.sources.append(file)
            let document: JSONValue
            do {
                document = try JSONValue(parsing: bytes)
            } catch {
                policy.failure = failureLine(file, (error.line, error.column), error.reason)
                return policy
            }
            do {
                try policy.read(document, file: file, locator: JSONLineLocator(bytes: bytes))
            } catch {
                let position = JSONLineLocator(bytes: bytes).position(of: error.pointer)
                policy.failure = failureLine(file, position, error.reason)
                return policy
            }
        }
        return policy
    }

    /// "policy FILE:LINE:COLUMN: REASON; everything … is blocked until it is fixed".
    static func failureLine(_ file: String, _ position: (line: Int, column: Int)?, _ reason: String) -> String {
        let place = position.map { ":\($0.line):\($0.column)" } ?? ""
        return "the administrator's policy \(file)\(place): \(reason); every plugin, skill, instruction skill and MCP source is blocked until the administrator fixes it"
    }

    // MARK: - Decisions

    /// The first rule that blocks the whole plugin, or the failure or publisher list that does: one line.
    func blockingReason(plugin subject: PolicySubject, publisherLabel: String?) -> String? {
        if let failure { return failure }
        if let rule = block.first(where: { !$0.selectsSkills && $0.matches(plugin: subject) }) {
            return Self.blocked("plugin \(subject.id)\(subject.version.map { " \($0)" } ?? "")", by: rule)
        }
        if let (keys, label) = allowedPublishers, !keys.contains(where: { $0.key.id == subject.publisher }) {
            let allowed = keys.map(\.label).joined(separator: ", ")
            let signer = publisherLabel.map { "it is signed by \($0)" } ?? "it carries no verified signature"
            return "plugin \(subject.id) is blocked by the administrator's policy (\(label)): only plugins signed by \(allowed) may run and \(signer); ask your administrator"
        }
        return nil
    }

    /// The rule that blocks one skill of a plugin the policy lets run.
    func blockingReason(skill skillID: String, of subject: PolicySubject) -> String? {
        block.first { $0.matches(skill: skillID, of: subject) }.map { Self.blocked("skill \(skillID)", by: $0) }
    }

    /// The rule that makes calls of the skill need approval.
    func approvalRule(skill skillID: String, of subject: PolicySubject) -> PolicyRule? {
        requireApproval.first { $0.selectsSkills ? $0.matches(skill: skillID, of: subject) : $0.matches(plugin: subject) }
    }

    /// The rule that makes the plugin run sandboxed.
    func sandboxRule(plugin subject: PolicySubject) -> PolicyRule? {
        requireSandbox.first { $0.matches(plugin: subject) }
    }

    /// Why the instruction skill `id` may not be offered, if it may not.
    func blockingReason(instructionSkill id: String, digest: () -> String?) -> String? {
        if let failure { return failure }
        return block.first { $0.matches(instructionSkill: id, digest: digest) }.map { Self.blocked("instruction skill \(id)", by: $0) }
    }

    /// Why the MCP source `id` may not be used, if it may not (for MCP servers as skill sources, issue #35).
    public func blockingReason(mcpSource id: String) -> String? {
        if let failure { return failure }
        return block.first { $0.matches(mcpSource: id) }.map { Self.blocked("MCP source \(id)", by: $0) }
    }

    static func blocked(_ what: String, by rule: PolicyRule) -> String {
        "\(what) is blocked by the administrator's policy \(rule.label)\(rule.reason.map { ": \($0)" } ?? ""); ask your administrator"
    }
}
