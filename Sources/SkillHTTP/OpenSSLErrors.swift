import COpenSSL

/// OpenSSL's error queue, read once for the server and the model provider's client.
public enum OpenSSLErrors {
    /// The last reason OpenSSL queued (its queue cleared), nil when it queued none.
    public static func lastReason() -> String? {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.last
    }
}
