import SkillJSON
import Synchronization

/// The execution context of one session: JSON values that skills store for later skills
/// (`context_set` / `context_get` in the ABI). Thread-safe.
public final class SessionContext: Sendable {
    private let values: Mutex<[String: JSONValue]>

    /// An empty context, or one with these values.
    public init(_ initial: [String: JSONValue] = [:]) { values = Mutex(initial) }

    /// The value stored under `key`.
    public func value(forKey key: String) -> JSONValue? { values.withLock { $0[key] } }

    /// Stores `value` under `key`.
    public func set(_ value: JSONValue, forKey key: String) { values.withLock { $0[key] = value } }

    /// Everything stored, for handing a snapshot to a worker process.
    public var snapshot: [String: JSONValue] { values.withLock { $0 } }

    /// Applies changes a worker reported back.
    public func merge(_ changes: [String: JSONValue]) {
        values.withLock { current in
            for (key, value) in changes { current[key] = value }
        }
    }
}
