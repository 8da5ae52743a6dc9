import Foundation
import SkillPosix
import Synchronization

/// The sessions of HTTP clients of the revisions before 2026-07-28 (those that `initialize`): each has an
/// `Mcp-Session-Id`, a server of its own and the token's name that opened it (another token cannot use it).
/// At most `maximum` at once: opening one more drops the least recently used. A session lives in one
/// process. Thread-safe.
final class MCPHTTPSessions: Sendable {
    private struct Session {
        var server: MCPServer
        var principal: String
        var lastUsed: UInt64
    }

    private let maximum: Int
    private let byID = Mutex<[String: Session]>([:])

    init(maximum: Int) { self.maximum = maximum }

    /// A new session id.
    static func newID() -> String { UUID().uuidString.lowercased() }

    /// Every session's server.
    var servers: [MCPServer] { byID.withLock { $0.values.map(\.server) } }

    /// The server of session `id` when `principal` opened it (marked used now); nil otherwise.
    func server(_ id: String, principal: String) -> MCPServer? {
        byID.withLock { sessions in
            guard var session = sessions[id], session.principal == principal else { return nil }
            session.lastUsed = Posix.monotonicNanoseconds()
            sessions[id] = session
            return session.server
        }
    }

    /// Opens session `id` of `principal` with `server`, dropping the least recently used one when full.
    func open(_ id: String, server: MCPServer, principal: String) {
        byID.withLock { sessions in
            if sessions.count >= maximum, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                sessions[oldest] = nil
            }
            sessions[id] = Session(server: server, principal: principal, lastUsed: Posix.monotonicNanoseconds())
        }
    }

    /// Ends session `id` when `principal` opened it; false when there is no such session of theirs.
    func end(_ id: String, principal: String) -> Bool {
        byID.withLock { sessions in
            guard sessions[id]?.principal == principal else { return false }
            sessions[id] = nil
            return true
        }
    }

    /// Forgets session `id` (its `initialize` was not answered).
    func forget(_ id: String) { byID.withLock { _ = $0.removeValue(forKey: id) } }
}
