import CSkillABI
import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// Owns the C side of one call: the `skill_call_context` struct, its strings, and the bytes handed out by
/// `context_get`, all freed when the call returns. Reached from the C callbacks through `host_data`.
final class CallContextBridge {
    let context: PluginCallContext
    let label: String
    private var allocations: [UnsafeMutablePointer<CChar>] = []

    init(context: PluginCallContext, label: String) {
        self.context = context
        self.label = label
    }

    deinit {
        for pointer in allocations { free(pointer) }
    }

    /// A C copy of `text` that lives as long as this bridge.
    func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        let pointer = strdup(text)!
        allocations.append(pointer)
        return pointer
    }

    /// Runs `body` with a filled `skill_call_context` whose callbacks lead back here. The strings point into
    /// temporary C copies (on the stack for short ones) valid while `body` runs, which is all the ABI
    /// promises: no allocation per string per call.
    func withCContext<Result>(_ body: (UnsafePointer<skill_call_context>) -> Result) -> Result {
        let configuration = context.configurationText ?? context.configuration.serialized()
        let length = configuration.utf8.count
        return context.callID.withCString { callID in
            context.sessionID.withCString { sessionID in
                context.idempotencyKey.withCString { idempotencyKey in
                    context.dataDirectory.withCString { dataDirectory in
                        configuration.withCString { configurationText in
                            var c = skill_call_context()
                            c.call_id = callID
                            c.session_id = sessionID
                            c.idempotency_key = idempotencyKey
                            c.config_json = configurationText
                            c.config_json_length = length
                            c.data_dir = dataDirectory
                            return fillCallbacks(&c, body)
                        }
                    }
                }
            }
        }
    }

    /// Fills the rest of `c` (size, deadline, callbacks) and runs `body` with it.
    private func fillCallbacks<Result>(
        _ c: inout skill_call_context, _ body: (UnsafePointer<skill_call_context>) -> Result
    ) -> Result {
        c.struct_size = UInt32(MemoryLayout<skill_call_context>.size)
        c.deadline_unix_ms = context.deadlineUnixMilliseconds
        c.host_data = Unmanaged.passUnretained(self).toOpaque()
        c.is_cancelled = { pointer in
            guard let bridge = CallContextBridge.from(pointer) else { return 0 }
            return bridge.context.isCancelled() ? 1 : 0
        }
        c.log = { pointer, level, message, length in
            guard let bridge = CallContextBridge.from(pointer), let message else { return }
            let text = String(decoding: UnsafeRawBufferPointer(start: message, count: length), as: UTF8.self)
            bridge.context.log(level, text)
        }
        c.context_get = { pointer, key, valueOut, lengthOut in
            guard let bridge = CallContextBridge.from(pointer), let key,
                let value = bridge.context.sessionContext.value(forKey: String(cString: key))
            else { return 0 }
            let text = value.serialized()
            valueOut?.pointee = UnsafePointer(bridge.keep(text))
            lengthOut?.pointee = text.utf8.count
            return 1
        }
        c.context_set = { pointer, key, value, length in
            guard let bridge = CallContextBridge.from(pointer), let key, let value else { return 1 }
            let bytes = UnsafeRawBufferPointer(start: value, count: length)
            guard let parsed = try? JSONValue(parsing: bytes) else { return 1 }
            bridge.context.sessionContext.set(parsed, forKey: String(cString: key))
            return 0
        }
        return withExtendedLifetime(self) { body(&c) }
    }

    private static func from(_ pointer: UnsafePointer<skill_call_context>?) -> CallContextBridge? {
        guard let data = pointer?.pointee.host_data else { return nil }
        return Unmanaged<CallContextBridge>.fromOpaque(data).takeUnretainedValue()
    }
}
