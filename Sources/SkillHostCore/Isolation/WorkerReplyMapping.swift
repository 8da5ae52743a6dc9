import CSkillABI
import SkillJSON

/// Turns a worker's reply into the skill's result or a ``HostError``, and merges the context values the skill
/// set back into the call's session.
enum WorkerReplyMapping {
    /// The result JSON of a successful reply.
    /// - Throws: ``HostError`` mapped from the `SKILL_STATUS_*` code (its message quotes the plugin's error
    ///   object), or "result too large".
    static func result(of reply: WorkerCallReply, call: SkillCall) throws(HostError) -> JSONValue {
        for change in reply.contextChanges {
            if let value = try? JSONValue(parsing: change.json) { call.sessionContext.set(value, forKey: change.key) }
        }
        let pluginID = call.pluginID
        if reply.status == WorkerCallReply.resultTooLarge {
            let size = Int(String(decoding: reply.json, as: UTF8.self)) ?? 0
            throw HostError(
                .skillFailed,
                "skill \(call.skillID) returned a result too large: \(megabytes(size)) MiB, more than the "
                    + "\(WorkerCallReply.maximumResultBytes >> 20) MiB a result may have; ask it for less (a filter or a page)",
                skillID: call.skillID, pluginID: pluginID)
        }
        if reply.status == SKILL_STATUS_OK {
            do {
                return try JSONValue(parsing: reply.json)
            } catch {
                throw HostError(
                    .skillFailed,
                    "skill \(call.skillID) returned a result that is not JSON (\(error)); this is a bug in plugin \(pluginID)",
                    skillID: call.skillID, pluginID: pluginID)
            }
        }
        let details = try? JSONValue(parsing: reply.json)
        let text = details?["message"]?.stringValue ?? (reply.json.isEmpty ? "no reason given" : String(decoding: reply.json.prefix(500), as: UTF8.self))
        var message = "skill \(call.skillID) "
        let kind: HostError.Kind
        switch reply.status {
        case SKILL_STATUS_INVALID_ARGUMENTS:
            kind = .invalidArguments
            message += "refused its arguments"
        case SKILL_STATUS_NOT_FOUND:
            kind = .notFound
            message += "is not known to plugin \(pluginID)"
        case SKILL_STATUS_CANCELLED:
            kind = .cancelled
            message += "was cancelled"
        case SKILL_STATUS_TIMEOUT:
            kind = .timeout
            message += "stopped at its deadline"
        case SKILL_STATUS_PERMISSION_DENIED:
            kind = .denied
            message += "was denied permission"
        case SKILL_STATUS_INTERNAL:
            kind = .skillFailed
            message += "hit an internal error in plugin \(pluginID)"
        default:
            kind = .skillFailed
            message += reply.status == SKILL_STATUS_FAILED ? "failed" : "failed with unknown status \(reply.status)"
        }
        message += ": " + text
        if let field = details?["field"]?.stringValue { message += " (at \(field.isEmpty ? "/" : field))" }
        if let remedy = details?["remedy"]?.stringValue { message += "; " + remedy }
        throw HostError(kind, message, skillID: call.skillID, pluginID: pluginID, details: details)
    }

    private static func megabytes(_ bytes: Int) -> String {
        let value = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        return String(value)
    }
}
