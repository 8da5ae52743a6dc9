import CSkillABI
import SkillJSON

extension SkillContext {
    /// A context for a host call: strings copied out of the C context, callbacks through `channel`.
    convenience init(cContext context: UnsafePointer<skill_call_context>, channel: any ContextChannel) {
        self.init(
            strings: .copied(CContextStrings(context: context).callStrings()), cContext: context, channel: channel)
    }

    /// A context for a host call whose strings stay in the C context until first read: the caller calls
    /// ``keepStrings()`` before the call returns when the context outlives it.
    convenience init(lazyCContext context: UnsafePointer<skill_call_context>, channel: any ContextChannel) {
        self.init(
            strings: LazyCallStrings.pending(CContextStrings(context: context)), cContext: context, channel: channel)
    }

    private convenience init(
        strings: LazyCallStrings, cContext context: UnsafePointer<skill_call_context>, channel: any ContextChannel
    ) {
        let c = context.pointee
        var configuration = SkillContext.emptyConfiguration
        // "{}" (most plugins have no configuration) needs no parser.
        let isEmptyObject = c.config_json_length == 2 && c.config_json?[0] == 0x7B && c.config_json?[1] == 0x7D
        if !isEmptyObject, let bytes = c.config_json, c.config_json_length > 0,
            let parsed = try? JSONValue(parsing: UnsafeRawBufferPointer(start: bytes, count: c.config_json_length))
        {
            configuration = parsed
        }
        self.init(
            strings: strings, deadlineUnixMilliseconds: c.deadline_unix_ms > 0 ? c.deadline_unix_ms : nil,
            configuration: configuration, channel: channel)
    }

    /// `{}`, made once: most plugins have no configuration, and an empty object per call costs an allocation.
    static let emptyConfiguration: JSONValue = [:]
}

/// The strings of a C call context, copied on demand.
struct CContextStrings: CallStringSource {
    let context: UnsafePointer<skill_call_context>

    func callStrings() -> CallStrings {
        let c = context.pointee
        func string(_ pointer: UnsafePointer<CChar>?) -> String {
            guard let pointer, pointer.pointee != 0 else { return "" }  // ids are often empty
            return String(cString: pointer)
        }
        return CallStrings(
            callID: string(c.call_id), sessionID: string(c.session_id), idempotencyKey: string(c.idempotency_key),
            dataDirectory: string(c.data_dir))
    }
}

extension UnsafePointer where Pointee == skill_call_context {
    /// Whether the host says this call is cancelled (its `is_cancelled`; a host without it never cancels).
    var hostCancelled: Bool { pointee.is_cancelled.map { $0(self) != 0 } ?? false }
}
