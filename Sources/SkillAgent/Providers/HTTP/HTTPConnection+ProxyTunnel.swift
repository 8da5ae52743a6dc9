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
        var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "User-Agent: skillhost\r\n\r\n"
        try write(Array(head.utf8))

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
            reply.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            headEnd = Self.endOfHead(reply)
            if headEnd == nil, reply.count > Self.maximumTunnelReplyBytes {
                throw ModelProviderError(
                    .invalidResponse, "\(proxy.named) answered CONNECT \(authority) with a head longer than \(Self.maximumTunnelReplyBytes) bytes")
            }
        }
        let statusLine = reply.prefix { $0 != 13 && $0 != 10 }
        let parts = String(decoding: statusLine, as: UTF8.self).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw ModelProviderError(
                .invalidResponse,
                "\(proxy.named) answered CONNECT \(authority) with something that is not HTTP; check \(proxy.variable) names an HTTP proxy")
        }
        guard (200...299).contains(status) else {
            throw ProxyRefusal.error(status: status, reason: parts.count > 2 ? String(parts[2]) : "", proxy: proxy, target: authority)
        }
        // TLS starts with the client, so a proxy that already sent more is not a plain tunnel.
        guard let end = headEnd, end == reply.count else {
            throw ModelProviderError(
                .invalidResponse, "\(proxy.named) sent data from \(authority) before the TLS handshake; the tunnel is not usable")
        }
    }

    /// The index just past the `\r\n\r\n` that ends a head, if `bytes` hold one.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
