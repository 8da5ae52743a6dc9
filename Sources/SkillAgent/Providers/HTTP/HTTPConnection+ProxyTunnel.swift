extension HTTPConnection {
    /// The largest `CONNECT` reply head accepted.
    static let maximumTunnelReplyBytes = 16 << 10

    /// Asks the proxy this connection reaches for a tunnel to `url`'s host and port (`CONNECT host:port`,
    /// with `Proxy-Authorization` when the proxy URL carries credentials) and waits for its answer. After
    /// a 2xx the connection carries bytes to and from the origin, so TLS with the origin can start.
    /// - Throws: ``ModelProviderError`` naming the proxy (without credentials), its status and the fix
    ///   when it refuses (407, 403, 502, …); `invalidResponse` when its answer is not HTTP.
    func tunnel(to url: HTTPURL, through proxy: HTTPProxy) throws(ModelProviderError) {
        let authority = "\(url.host.contains(":") ? "[\(url.host)]" : url.host):\(url.port)"
        var request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy.authorization { request += "Proxy-Authorization: \(authorization)\r\n" }
        request += "User-Agent: skillhost\r\n\r\n"
        try write(Array(request.utf8))

        var reply: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        var headEnd: Int?
        while headEnd == nil {
            let count = try read(into: buffer)
            guard count > 0 else {
                throw ModelProviderError(
                    .transport,
                    "\(proxy.named) closed the connection instead of answering CONNECT \(authority); check \(proxy.variable) names an HTTP proxy")
            }
            let searched = max(0, reply.count - 3)
            reply.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            headEnd = HTTPResponseParser.find(HTTPResponseParser.headEnd, in: reply, from: searched)
            // Until the blank line arrives, up to 3 of the bytes read may be its start: the head is longer
            // than the limit only when the rest is, however the bytes were split.
            if (headEnd ?? max(0, reply.count - 3)) > Self.maximumTunnelReplyBytes {
                throw ModelProviderError(
                    .invalidResponse, "\(proxy.named) answered CONNECT \(authority) with a head longer than \(Self.maximumTunnelReplyBytes) bytes")
            }
        }
        let head: HTTPResponseHead
        do throws(HTTPResponseParser.Malformed) {
            head = try HTTPResponseParser.parseHead(reply[..<headEnd!])
        } catch {
            throw ModelProviderError(
                .invalidResponse,
                "\(proxy.named) answered CONNECT \(authority) with something that is not HTTP (\(error)); check \(proxy.variable) names an HTTP proxy")
        }
        guard (200...299).contains(head.status) else {
            throw ProxyRefusal.error(status: head.status, reason: head.reason, proxy: proxy, target: authority)
        }
        // TLS starts with the client, so a proxy that already sent more is not a plain tunnel.
        guard headEnd! + 4 == reply.count else {
            throw ModelProviderError(
                .invalidResponse, "\(proxy.named) sent data from \(authority) before the TLS handshake; the tunnel is not usable")
        }
    }
}
