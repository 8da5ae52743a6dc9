import SkillHostCore

/// The host's HTTP client for MCP servers used as skill sources (docs/mcp-sources.md, "HTTP servers"): the
/// model providers' client (TLS verified against the system's certificates, proxies, idle timeouts) and
/// their SSE decoder, so the MCP client below this layer needs no HTTP code of its own.
extension SocketHTTPTransport: MCPHTTPClient {
    public func send(
        method: String, url: String, headers: [String: String], body: [UInt8], idleTimeout: Double, maximumEventBytes: Int
    ) async throws(HostError) -> MCPHTTPResponse {
        let head: HTTPResponseHead
        let bytes: AsyncThrowingStream<[UInt8], any Error>
        do throws(ModelProviderError) {
            (head, bytes) = try await send(HTTPRequest(url: url, method: method, headers: headers, body: body, idleTimeout: idleTimeout))
        } catch {
            throw Self.hostError(error)
        }
        let isEventStream = head.headers["content-type"]?.lowercased().hasPrefix("text/event-stream") == true
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let pump = Task {
            var decoder = ServerSentEventDecoder()
            var pending = 0
            do {
                for try await chunk in bytes {
                    pending += chunk.count
                    if pending > maximumEventBytes {
                        throw HostError(.invalidResult, "\(url) sent a message of more than \(maximumEventBytes >> 20) MiB")
                    }
                    guard isEventStream else {
                        continuation.yield(chunk)
                        continue
                    }
                    for event in decoder.feed(chunk) {
                        pending = 0
                        continuation.yield(Array(event.utf8))
                    }
                }
                if isEventStream, let last = decoder.finish() { continuation.yield(Array(last.utf8)) }
                continuation.finish()
            } catch let error as ModelProviderError {
                continuation.finish(throwing: Self.hostError(error))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return MCPHTTPResponse(status: head.status, headers: head.headers, isEventStream: isEventStream, body: stream)
    }

    /// The transport's error as the host's, its advice worded for an MCP server's URL.
    private static func hostError(_ error: ModelProviderError) -> HostError {
        let message = error.message.replacingOccurrences(of: "the --base-url", with: "the URL")
            .replacingOccurrences(of: "--base-url", with: "URL")
        switch error.kind {
        case .timeout: return HostError(.timeout, message)
        case .cancelled: return HostError(.cancelled, message)
        default: return HostError(.io, message)
        }
    }
}
