import SkillJSON

/// Turns a worker's reply into the skill's result or a ``HostError`` (the same mapping as in-process calls,
/// ``PluginResult/value(skillID:pluginID:)``), and merges the context values the skill set back into the
/// call's session.
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
            throw PluginResult.tooLarge(Int(String(decoding: reply.json, as: UTF8.self)) ?? 0, skillID: call.skillID, pluginID: pluginID)
        }
        return try PluginResult(status: reply.status, bytes: reply.json).value(skillID: call.skillID, pluginID: pluginID)
    }
}
