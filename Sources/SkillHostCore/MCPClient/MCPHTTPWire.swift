import Foundation
import SkillJSON
import Synchronization

/// How an ``MCPClientConnection`` reaches a Streamable HTTP server (docs/mcp-sources.md, "HTTP servers"):
/// each message is one `POST` to the server's URL with `Accept: application/json, text/event-stream`, the
/// entry's headers (their `${NAME}` references expanded when the connection was made), `Mcp-Session-Id` once
/// `initialize` gave one and `MCP-Protocol-Version` once a revision is settled; under the stateless
/// revision (2026-07-28) also `Mcp-Method` and `Mcp-Name`. The answer — one JSON message, or server-sent
/// events carrying progress notifications and then the response — goes to the connection as the stdio
/// reader's lines do. The server's own messages come on the session's standalone `GET` stream when it is
/// opened (``listen(to:)``). Every failure names the server, the URL and the fix in one line.
final class MCPHTTPWire: Sendable {
    struct State {
        var sessionID: String?
        var version: String?
        var stateless = false
        var exchanges: [Int64: Task<Void, Never>] = [:]
        /// The standalone `GET` stream's task (``listen(to:)``).
        var listener: Task<Void, Never>?
        var closed = false
    }

    let name: String
    let url: String
    /// The header fields as sent (references expanded).
    let headers: [String: String]
    /// The variables the entry's headers refer to (for the advice after a 401).
    private let referenced: [String]
    let client: any MCPHTTPClient
    let state = Mutex(State())

    init(name: String, url: String, headers: [String: String], referenced: [String], client: any MCPHTTPClient) {
        self.name = name
        self.url = url
        self.headers = headers
        self.referenced = referenced
        self.client = client
    }

    /// The revision settled (`initialize`'s answer, or the stateless one after `server/discover`).
    func settle(version: String?, stateless: Bool) {
        state.withLock { state in
            state.version = version
            state.stateless = stateless
        }
    }

    /// Posts `message`; its answer (or the failure) reaches `connection`. `idleTimeout` bounds each wait for data.
    func post(_ message: JSONObject, idleTimeout: Double, to connection: MCPClientConnection) {
        let method = message["method"]?.stringValue
        let requestID = method == nil ? nil : message["id"]?.intValue
        let task = Task { [self] in
            do throws(HostError) {
                try await exchange(message, method: method, requestID: requestID, idleTimeout: idleTimeout, connection: connection)
            } catch {
                if let requestID { connection.fail(requestID: requestID, error) }
            }
            if let requestID { _ = state.withLock { $0.exchanges.removeValue(forKey: requestID) } }
        }
        guard let requestID else { return }
        let late = state.withLock { state -> Bool in
            if state.closed { return true }
            state.exchanges[requestID] = task
            return false
        }
        if late { task.cancel() }
    }

    /// The request `id` needs no more of its answer (answered, timed out or cancelled): its exchange stops.
    func finished(_ id: Int64) {
        state.withLock { $0.exchanges.removeValue(forKey: id) }?.cancel()
    }

    /// Stops every exchange and the `GET` stream; a session the server opened is ended with `DELETE` (best effort).
    func close() {
        let (exchanges, sessionID): ([Task<Void, Never>], String?) = state.withLock { state in
            state.closed = true
            defer { state.exchanges = [:]; state.listener = nil }
            return (Array(state.exchanges.values) + [state.listener].compactMap { $0 }, state.sessionID)
        }
        for exchange in exchanges { exchange.cancel() }
        guard let sessionID else { return }
        var fields = headers
        fields["Mcp-Session-Id"] = sessionID
        let client = client, url = url
        Task.detached { _ = try? await client.send(method: "DELETE", url: url, headers: fields, body: [], idleTimeout: 2, maximumEventBytes: 1 << 16) }
    }

    private func failure(_ kind: HostError.Kind, _ text: String) -> HostError {
        HostError(kind, "MCP server \(name) (\(url)) \(text)", pluginID: name)
    }

    /// The HTTP client's failure, named after the server: a message over the size limit, or the client's
    /// own words (which say what to check).
    private func relayed(_ error: HostError) -> HostError {
        if error.kind == .invalidResult {
            return failure(.invalidResult,
                "sent a message of more than \(MCPClientConnection.maximumMessageBytes >> 20) MiB (the most a skill's result may have); it was refused: ask the tool for less (a filter or a page)")
        }
        return HostError(error.kind, "MCP server \(name) (\(url)): \(error.message)", pluginID: name)
    }

    private func exchange(
        _ message: JSONObject, method: String?, requestID: Int64?, idleTimeout: Double, connection: MCPClientConnection
    ) async throws(HostError) {
        let settled = state.withLock { $0 }
        var fields = headers
        fields["Content-Type"] = "application/json"
        fields["Accept"] = "application/json, text/event-stream"
        if let version = settled.version { fields["MCP-Protocol-Version"] = version }
        if let sessionID = settled.sessionID { fields["Mcp-Session-Id"] = sessionID }
        if settled.stateless, let method {
            fields["Mcp-Method"] = method
            let params = message["params"]
            if let name = (method == "resources/read" ? params?["uri"] : params?["name"])?.stringValue {
                fields["Mcp-Name"] = Self.headerValue(name)
            }
        }
        let body = Array(JSONValue.object(message).serialized().utf8)
        let response: MCPHTTPResponse
        do {
            response = try await client.send(
                method: "POST", url: url, headers: fields, body: body, idleTimeout: idleTimeout, maximumEventBytes: MCPClientConnection.maximumMessageBytes)
        } catch {
            throw relayed(error)
        }
        if method == "initialize", let sessionID = response.headers["mcp-session-id"], !sessionID.isEmpty {
            state.withLock { $0.sessionID = sessionID }
        }
        let what = method ?? "a message"
        switch response.status {
        case 200..<300:
            break
        case 401, 403:
            let variables = referenced.isEmpty ? "" : " (the header refers to \(referenced.map { "${\($0)}" }.joined(separator: ", ")))"
            let advice = referenced.isEmpty
                ? "add a token with 'skillhost add-mcp \(name) --url \(url) --header \"Authorization: Bearer ${TOKEN}\" --replace' and export TOKEN"
                : "export \(referenced.joined(separator: ", ")) with a token the server accepts\(variables)"
            throw failure(.denied, "refused \(what) with HTTP \(response.status)\(response.status == 401 ? " Unauthorized" : " Forbidden"); \(advice)")
        case 404 where settled.sessionID != nil:
            let error = failure(.pluginCrashed, "no longer knows its session (HTTP 404); it is opened again on the next use")
            connection.end(error)
            throw error
        default:
            let text = await Self.prefix(of: response.body, bytes: 300)
            let kind: HostError.Kind = [400, 404, 405].contains(response.status) ? .notFound : .io
            throw failure(kind, "answered \(what) with HTTP \(response.status)\(text.isEmpty ? "" : ": \(text)"); check the URL (skillhost inspect \(name)) and that the server speaks MCP's Streamable HTTP there")
        }
        guard let requestID else { return }
        let type = response.headers["content-type"] ?? "no content type"
        guard response.isEventStream || type.lowercased().hasPrefix("application/json") else {
            throw failure(.invalidResult, "answered \(what) with \(type.prefix(60)), not JSON-RPC (application/json or text/event-stream); check that the URL is the server's MCP endpoint (often …/mcp)")
        }
        var whole: [UInt8] = []
        do {
            for try await element in response.body {
                guard response.isEventStream else {
                    whole += element
                    continue
                }
                guard let value = try? JSONValue(parsing: element) else {
                    throw failure(.invalidResult, "sent an event that is not JSON during \(what); check that the URL is the server's MCP endpoint")
                }
                connection.receive(value)
                if !connection.isWaiting(requestID) { return }
            }
        } catch let error as HostError {
            throw error.message.hasPrefix("MCP server") ? error : relayed(error)
        } catch {
            throw failure(.io, "broke off its answer to \(what): \(error)")
        }
        if !response.isEventStream {
            guard let value = try? JSONValue(parsing: whole) else {
                let start = TerminalText.sanitized(String(decoding: whole.prefix(80), as: UTF8.self))
                throw failure(.invalidResult, "answered \(what) with a body that is not JSON (\"\(start)\"); check that the URL is the server's MCP endpoint")
            }
            connection.receive(value)
        }
        if connection.isWaiting(requestID) {
            throw failure(.invalidResult, "ended its answer to \(what) without a result for it; the server may not speak this revision of MCP")
        }
    }

    /// The first `bytes` of a body, as sanitized text on one line.
    private static func prefix(of body: AsyncThrowingStream<[UInt8], any Error>, bytes: Int) async -> String {
        var collected: [UInt8] = []
        do {
            for try await chunk in body {
                collected += chunk
                if collected.count >= bytes { break }
            }
        } catch {}
        let text = String(decoding: collected.prefix(bytes), as: UTF8.self)
        return TerminalText.sanitized(text).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A header value: plain when it is printable ASCII, else `=?base64?…?=` (the stateless revision's form).
    static func headerValue(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return "=?base64?" + Data(text.utf8).base64EncodedString() + "?="
    }
}
