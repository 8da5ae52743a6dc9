import CSkillABI
import SkillJSON

/// How one call ended, before it is written into the C `skill_result`.
enum CallOutcome: Sendable {
    /// The skill's output as JSON text, owned by whoever holds the outcome last: handed to the host as
    /// the result, or released where an outcome is dropped (``CallRendezvous``).
    case success(JSONText)
    /// A failure the skill (or the SDK on its behalf) reports. Indirect: the error is large, and a
    /// successful outcome, copied a few times on its way to the host, stays two words and a tag.
    indirect case failure(SkillError)
    /// A bug in the plugin, e.g. an output that cannot be encoded.
    case internalError(String)
    /// No skill with the requested id.
    case notFound(String)

    /// The outcome of running `skill` on the arguments object `json`: decode, execute, encode.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): no executor switch of its own before the
    /// skill's `execute`. An `Encodable` output is written straight to JSON bytes when the skill keeps the
    /// SDK's ``Skill/encodeOutput(_:)`` (see ``OutputCapture``).
    nonisolated(nonsending) static func run<S: Skill>(_ skill: S, arguments json: JSONValue, context: SkillContext)
        async -> CallOutcome
    {
        let arguments: S.Arguments
        do {
            arguments = try S.decodeArguments(json)
        } catch {
            return .failure(error)
        }
        let output: S.Output
        do {
            output = try await skill.execute(arguments, context: context)
        } catch {
            return CallOutcome(thrown: error)
        }
        return CallOutcome(output: output, of: skill)
    }

    /// The outcome of running a ``SynchronousSkill`` on the calling thread: decode, ``SynchronousSkill/run(_:context:)``,
    /// encode, with no task.
    static func runSynchronously<S: SynchronousSkill>(_ skill: S, arguments json: JSONValue, context: SkillContext)
        -> CallOutcome
    {
        let arguments: S.Arguments
        do {
            arguments = try S.decodeArguments(json)
        } catch {
            return .failure(error)
        }
        let output: S.Output
        do {
            output = try skill.run(arguments, context: context)
        } catch {
            return CallOutcome(thrown: error)
        }
        return CallOutcome(output: output, of: skill)
    }

    /// The failure for an error a skill threw: a ``SkillError`` as it is, `CancellationError` as
    /// ``SkillError/cancelled``, anything else as a failure with its description.
    init(thrown error: any Error) {
        switch error {
        case let error as SkillError: self = .failure(error)
        case is CancellationError: self = .failure(.cancelled)
        default: self = .failure(.failed(message: "\(error)"))
        }
    }

    /// The success holding `output` as JSON text, or an internal error when it cannot be encoded.
    init<S: Skill>(output: S.Output, of skill: S) {
        do {
            let (value, captured) = try OutputCapture.run(for: S.self) { try S.encodeOutput(output) }
            self = .success(captured ?? JSONText(copying: value.serialized()))
        } catch {
            self = .internalError("skill \"\(skill.name)\" returned an output that cannot be encoded as JSON: \(error)")
        }
    }

    /// The outcome as the host should see it when the call was stopped for `reason`: a cancellation the
    /// skill reports becomes `reason` (so a deadline reads as a timeout); a finished result stays.
    func stopped(by reason: SkillError?) -> CallOutcome {
        guard let reason, case .failure(let error) = self,
            error.kind == .cancelled || error.kind == .timedOut
        else { return self }
        return .failure(reason)
    }

    /// The ABI status code.
    var status: skill_status {
        switch self {
        case .success: return SKILL_STATUS_OK
        case .internalError: return SKILL_STATUS_INTERNAL
        case .notFound: return SKILL_STATUS_NOT_FOUND
        case .failure(let error):
            switch error.kind {
            case .invalidArguments: return SKILL_STATUS_INVALID_ARGUMENTS
            case .failed: return SKILL_STATUS_FAILED
            case .permissionDenied: return SKILL_STATUS_PERMISSION_DENIED
            case .cancelled: return SKILL_STATUS_CANCELLED
            case .timedOut: return SKILL_STATUS_TIMEOUT
            }
        }
    }

    /// The result JSON, a `malloc`'d text the caller owns: the output itself (taking it over from this
    /// outcome), or a new error object `{"message", "field"?, "remedy"?}`.
    var json: JSONText {
        switch self {
        case .success(let text): return text
        case .internalError(let message), .notFound(let message):
            return JSONText(copying: JSONValue.object(["message": .string(message)]).serialized())
        case .failure(let error):
            var object: JSONObject = ["message": .string(error.message)]
            if let field = error.field { object["field"] = .string(field) }
            if let remedy = error.remedy { object["remedy"] = .string(remedy) }
            return JSONText(copying: JSONValue.object(object).serialized())
        }
    }

    /// Frees what the outcome owns, when it is dropped instead of handed to the host.
    func release() {
        if case .success(let text) = self { text.release() }
    }
}
