import CSkillABI
import SkillJSON

extension SkillContext {
    /// A context for a host call: strings copied out of the C context, callbacks through `channel`.
    convenience init(cContext context: UnsafePointer<skill_call_context>, channel: any ContextChannel) {
        let c = context.pointee
        func string(_ pointer: UnsafePointer<CChar>?) -> String {
            guard let pointer, pointer.pointee != 0 else { return "" }  // ids are often empty
            return String(cString: pointer)
        }
        var configuration = SkillContext.emptyConfiguration
        // "{}" (most plugins have no configuration) needs no parser.
        let isEmptyObject = c.config_json_length == 2 && c.config_json?[0] == 0x7B && c.config_json?[1] == 0x7D
        if !isEmptyObject, let bytes = c.config_json, c.config_json_length > 0,
            let parsed = try? JSONValue(parsing: UnsafeRawBufferPointer(start: bytes, count: c.config_json_length))
        {
            configuration = parsed
        }
        self.init(
            callID: string(c.call_id), sessionID: string(c.session_id), idempotencyKey: string(c.idempotency_key),
            deadlineUnixMilliseconds: c.deadline_unix_ms > 0 ? c.deadline_unix_ms : nil,
            configuration: configuration, dataDirectory: string(c.data_dir), channel: channel)
    }

    /// `{}`, made once: most plugins have no configuration, and an empty object per call costs an allocation.
    static let emptyConfiguration: JSONValue = [:]
}
