import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization

/// A ``SkillBackend`` over Swift closures, for the tests of every front end: it does what the host does
/// around a skill — unknown and disabled skills, the host's argument validator, the registry's approval
/// policy (`ask` for `write` and `dangerous` unless a skill says otherwise), and the skill's deadline, counted
/// from when the skill starts (``CallDeadline``) — and records every call that reached a skill.
public final class MemoryBackend: SkillBackend {
    /// One skill.
    public struct Skill: Sendable {
        public var tool: SkillTool
        public var enabled: Bool
        /// The registry's approval; nil: `ask` for `write` and `dangerous` skills, `allow` for `read`.
        public var approval: ApprovalPolicy?
        public var body: @Sendable (JSONValue, InvocationOptions) async throws -> JSONValue

        public init(
            tool: SkillTool, enabled: Bool = true, approval: ApprovalPolicy? = nil,
            body: @escaping @Sendable (JSONValue, InvocationOptions) async throws -> JSONValue
        ) {
            self.tool = tool
            self.enabled = enabled
            self.approval = approval
            self.body = body
        }
    }

    /// A call that reached its skill.
    public struct Invocation: Sendable {
        public var skillID: String
        public var arguments: JSONValue
        public var options: InvocationOptions
    }

    private let skills: Mutex<[String: Skill]>
    private let order: Mutex<[String]>
    private let log = Mutex<[Invocation]>([])
    private let inFlight = Mutex<(now: Int, peak: Int)>((0, 0))
    private let validator = ArgumentValidator()
    private let limits: [String: CallLimit]

    /// A backend with these skills (and call limits by skill id).
    public init(_ skills: [Skill], limits: [String: CallLimit] = [:]) {
        self.skills = Mutex(Dictionary(skills.map { ($0.tool.id, $0) }, uniquingKeysWith: { first, _ in first }))
        self.order = Mutex(skills.map(\.tool.id))
        self.limits = limits
    }

    /// Replaces the skills.
    public func setSkills(_ skills: [Skill]) {
        self.skills.withLock { $0 = Dictionary(skills.map { ($0.tool.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        order.withLock { $0 = skills.map(\.tool.id) }
    }

    /// The calls that reached a skill, in arrival order.
    public var invocations: [Invocation] { log.withLock { $0 } }
    /// The most calls that were running at once.
    public var peakConcurrency: Int { inFlight.withLock { $0.peak } }

    public func tools() throws(HostError) -> [SkillTool] {
        let skills = self.skills.withLock { $0 }
        return order.withLock { $0 }.compactMap { skills[$0] }.filter(\.enabled).map(\.tool)
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { limits }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard let skill = skills.withLock({ $0[skillID] }) else {
            throw HostError(.notFound, "no skill \(skillID)", skillID: skillID)
        }
        guard skill.enabled else { throw HostError(.disabled, "skill \(skillID) is disabled", skillID: skillID) }
        let policy = skill.approval ?? (skill.tool.permission.needsApproval ? .ask : .allow)
        let description = SkillDescription(
            manifest: skill.tool.skill, pluginID: String(skillID.split(separator: ".").first ?? ""), pluginPath: "",
            enabled: true, approval: policy)
        try validator.validate(arguments, for: description)
        if policy == .deny { throw HostError(.denied, "skill \(skillID) is denied by the registry", skillID: skillID) }
        return PreparedCall(skill: description, arguments: arguments)
    }

    public func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let id = call.skill.id
        guard let skill = skills.withLock({ $0[id] }) else { throw HostError(.notFound, "no skill \(id)", skillID: id) }
        if call.needsApproval, !options.approved { throw HostError(.denied, "skill \(id) was not approved", skillID: id) }
        let deadline = CallDeadline(seconds: call.skill.timeout)
        log.withLock { $0.append(Invocation(skillID: id, arguments: call.arguments, options: options)) }
        inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
        defer { inFlight.withLock { $0.now -= 1 } }
        // The skill runs in a task of its own that its deadline outruns, as a worker's reply does.
        let completion = CallCompletion<JSONValue>()
        let work = Task {
            do {
                completion.finish(.success(try await skill.body(call.arguments, options)))
            } catch let error as HostError {
                completion.finish(.failure(error))
            } catch is CancellationError {
                completion.finish(.failure(HostError(.cancelled, "\(id) was cancelled", skillID: id)))
            } catch {
                completion.finish(.failure(HostError(.skillFailed, "\(id) failed: \(error)", skillID: id)))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int64((deadline.remainingSeconds * 1000).rounded(.up))))
            if !Task.isCancelled { completion.finish(.failure(deadline.timeout(id, pluginID: call.skill.pluginID, detail: "the test skill was stopped"))) }
        }
        let result = await withTaskCancellationHandler {
            await completion.wait()
        } onCancel: {
            completion.finish(.failure(HostError(.cancelled, "\(id) was cancelled", skillID: id)))
        }
        work.cancel()
        timer.cancel()
        return try result.get()
    }
}
