import SkillJSON

// The standalone `GET` stream of a 2025-11-25 session: the server's own messages, outside any request.
extension MCPHTTPWire {
    /// How long the `GET` stream may stay silent before it is opened again (servers send nothing between changes).
    static let listenIdleTimeout: Double = 300
    /// The wait before the stream is opened again after one that failed at once: doubling up to the last.
    static let listenBackoff: (first: Double, last: Double) = (1, 60)

    /// What became of one `GET` stream.
    enum ListenOutcome: Equatable {
        /// The server offers no stream (405) or refuses it for good (another 4xx): not opened again.
        case refused
        /// It delivered messages, or lived a while, before it ended: opened again after the first back-off.
        case ended
        /// It could not be opened or broke off at once: opened again after a longer back-off.
        case failed
    }

    /// Opens the spec's standalone `GET` stream (Accept: text/event-stream, the entry's headers, `Mcp-Session-Id`,
    /// `MCP-Protocol-Version`) and hands each event's message to `connection` as a `POST`'s events are (there
    /// `notifications/tools/list_changed` drops the cached tools). A stream that ends or fails is opened again
    /// after a back-off (``listenBackoff``); a 405 means the server offers none: it stops quietly. It stops for
    /// good on ``close()`` or when `connection` ends; the task holds nothing that keeps the process alive.
    func listen(to connection: MCPClientConnection) {
        let task = Task { [self, weak connection] in
            var delay = Self.listenBackoff.first
            while !Task.isCancelled {
                guard let connection, !connection.hasEnded, !connection.wasClosed else { return }
                let outcome = await listenOnce(connection)
                switch outcome {
                case .refused: return
                case .ended: delay = Self.listenBackoff.first
                case .failed: break
                }
                do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { return }
                if outcome == .failed { delay = min(delay * 2, Self.listenBackoff.last) }
            }
        }
        let late = state.withLock { state -> Bool in
            if state.closed || state.listener != nil { return true }
            state.listener = task
            return false
        }
        if late { task.cancel() }
    }

    private func listenOnce(_ connection: MCPClientConnection) async -> ListenOutcome {
        let settled = state.withLock { $0 }
        guard let sessionID = settled.sessionID else { return .refused }
        var fields = headers
        fields["Accept"] = "text/event-stream"
        fields["Mcp-Session-Id"] = sessionID
        if let version = settled.version { fields["MCP-Protocol-Version"] = version }
        let response: MCPHTTPResponse
        do {
            response = try await client.send(
                method: "GET", url: url, headers: fields, body: [], idleTimeout: Self.listenIdleTimeout,
                maximumEventBytes: MCPClientConnection.maximumMessageBytes)
        } catch {
            return .failed
        }
        switch response.status {
        case 200..<300 where response.isEventStream: break
        case 408, 429, 500...: return .failed
        default: return .refused
        }
        let opened = Posix.monotonicSeconds()
        var delivered = false
        do {
            for try await element in response.body {
                guard let value = try? JSONValue(parsing: element) else { continue }
                delivered = true
                connection.receive(value)
            }
        } catch {}
        // A stream that carried messages or lived a while (a silent one ends at the idle timeout) ended well.
        return delivered || Posix.monotonicSeconds() - opened > 10 ? .ended : .failed
    }
}
