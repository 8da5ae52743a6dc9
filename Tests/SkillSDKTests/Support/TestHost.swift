import CSkillABI
import Foundation
import SkillJSON
import Synchronization

/// A fake host for driving a plugin descriptor directly: it builds a `skill_call_context` whose callbacks
/// record what the plugin does, and calls `invoke` on a thread of its own (as the real host does).
final class TestHost: Sendable {
    /// Unchecked: the buffers are only freed in deinit, after every call has returned.
    struct State: @unchecked Sendable {
        var values: [String: String] = [:]
        var logs: [(level: Int32, message: String)] = []
        var callbackThreads: [String] = []
        var returnedBuffers: [UnsafeMutablePointer<CChar>] = []
    }

    /// One finished call.
    struct Call {
        var status: skill_status
        var text: String
        var json: JSONValue?
        var invokeThread: String
    }

    let state = Mutex(State())
    let cancelled = Atomic<Bool>(false)

    init(values: [String: String] = [:]) { state.withLock { $0.values = values } }

    deinit {
        state.withLock { state in for buffer in state.returnedBuffers { free(buffer) } }
    }

    var logs: [(level: Int32, message: String)] { state.withLock { $0.logs } }
    var callbackThreads: [String] { state.withLock { $0.callbackThreads } }
    func value(_ key: String) -> String? { state.withLock { $0.values[key] } }

    /// Calls `skillID` through `descriptor` on a new thread and waits for it.
    func call(
        _ descriptor: UnsafePointer<skill_plugin_descriptor>, _ skillID: String, _ arguments: String = "{}",
        deadlineUnixMilliseconds: Int64 = 0, configuration: String = "{}", cancelAfter: Duration? = nil,
        contextSize: Int = MemoryLayout<skill_call_context>.size, idempotencyKey: String = "key-1",
        dataDirectory: String = "/tmp/sdk-test-data"
    ) async -> Call {
        nonisolated(unsafe) let descriptor = descriptor
        if let cancelAfter {
            Thread.detachNewThread { [self] in
                Thread.sleep(
                    forTimeInterval: Double(cancelAfter.components.seconds) + Double(cancelAfter.components.attoseconds)
                        / 1e18)
                cancelled.store(true, ordering: .sequentiallyConsistent)
            }
        }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(
                    returning: callOnThisThread(
                        descriptor, skillID, arguments, deadlineUnixMilliseconds, configuration, contextSize,
                        idempotencyKey, dataDirectory))
            }
        }
    }

    private func callOnThisThread(
        _ descriptor: UnsafePointer<skill_plugin_descriptor>, _ skillID: String, _ arguments: String,
        _ deadline: Int64, _ configuration: String, _ contextSize: Int, _ idempotencyKey: String = "key-1",
        _ dataDirectory: String = "/tmp/sdk-test-data"
    ) -> Call {
        let texts: [String] = ["call-1", "session-1", idempotencyKey, configuration, dataDirectory]
        let strings = texts.map { strdup($0)! }
        defer { strings.forEach { free($0) } }
        var context = skill_call_context()
        context.struct_size = UInt32(contextSize)
        context.call_id = UnsafePointer(strings[0])
        context.session_id = UnsafePointer(strings[1])
        context.idempotency_key = UnsafePointer(strings[2])
        context.deadline_unix_ms = deadline
        context.config_json = UnsafePointer(strings[3])
        context.config_json_length = strlen(strings[3])
        context.data_dir = UnsafePointer(strings[4])
        context.host_data = Unmanaged.passUnretained(self).toOpaque()
        context.is_cancelled = { context in
            TestHost.from(context).cancelled.load(ordering: .sequentiallyConsistent) ? 1 : 0
        }
        context.log = { context, level, message, length in
            let host = TestHost.from(context)
            let text = String(decoding: UnsafeRawBufferPointer(start: message, count: length), as: UTF8.self)
            host.state.withLock { state in
                state.logs.append((level, text))
                state.callbackThreads.append(TestHost.threadName())
            }
        }
        context.context_get = { context, key, valueJSON, valueLength in
            let host = TestHost.from(context)
            return host.state.withLock { state in
                state.callbackThreads.append(TestHost.threadName())
                guard let key, let value = state.values[String(cString: key)] else { return 0 }
                let copy = strdup(value)!
                state.returnedBuffers.append(copy)
                valueJSON?.pointee = UnsafePointer(copy)
                valueLength?.pointee = strlen(copy)
                return 1
            }
        }
        context.context_set = { context, key, valueJSON, valueLength in
            let host = TestHost.from(context)
            let text = String(decoding: UnsafeRawBufferPointer(start: valueJSON, count: valueLength), as: UTF8.self)
            guard (try? JSONValue(parsing: text)) != nil, let key else { return SKILL_STATUS_INVALID_ARGUMENTS }
            host.state.withLock { state in
                state.values[String(cString: key)] = text
                state.callbackThreads.append(TestHost.threadName())
            }
            return SKILL_STATUS_OK
        }

        var result = skill_result()
        result.struct_size = UInt32(MemoryLayout<skill_result>.size)
        var bytes = Array(arguments.utf8)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { arguments in
                descriptor.pointee.invoke!(
                    descriptor, skillID, arguments.baseAddress, arguments.count, &context, &result)
            }
        }
        let text =
            result.json.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: result.json_length), as: UTF8.self)
            } ?? ""
        descriptor.pointee.free_result!(descriptor, &result)
        return Call(
            status: status, text: text, json: try? JSONValue(parsing: text), invokeThread: TestHost.threadName())
    }

    private static func from(_ context: UnsafePointer<skill_call_context>?) -> TestHost {
        Unmanaged<TestHost>.fromOpaque(context!.pointee.host_data!).takeUnretainedValue()
    }

    static func threadName() -> String { "\(pthread_self())" }
}
