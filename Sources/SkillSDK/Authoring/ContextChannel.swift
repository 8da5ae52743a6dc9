import SkillJSON
import Synchronization

/// The host side of a ``SkillContext``: the ABI's callbacks during a real call, memory in tests.
protocol ContextChannel: Sendable {
    var isCancelled: Bool { get }
    func log(_ message: String, level: SkillContext.LogLevel)
    func value(forKey key: String) async -> JSONValue?
    func set(_ value: JSONValue, forKey key: String) async throws(SkillError)
}

/// A channel with no host: values in memory, log lines kept, never cancelled.
final class LocalContextChannel: ContextChannel {
    private struct State {
        var values: [String: JSONValue]
        var lines: [(level: SkillContext.LogLevel, message: String)] = []
    }

    private let state: Mutex<State>

    init(values: [String: JSONValue]) { state = Mutex(State(values: values)) }

    var isCancelled: Bool { false }

    var lines: [(level: SkillContext.LogLevel, message: String)] { state.withLock { $0.lines } }

    func log(_ message: String, level: SkillContext.LogLevel) {
        state.withLock { $0.lines.append((level, message)) }
    }

    func value(forKey key: String) async -> JSONValue? { state.withLock { $0.values[key] } }

    func set(_ value: JSONValue, forKey key: String) async throws(SkillError) {
        state.withLock { $0.values[key] = value }
    }
}
