import SkillJSON

/// The idempotency key of a logical call: the same session, skill and arguments (compared as canonical
/// JSON, keys sorted) give the same key, so a repeated request after a crash or a retry by the model is
/// recognised. Format: `<session>/<skill>/<16 hex digits of FNV-1a over the canonical arguments>`.
enum CallKey {
    static func make(sessionID: String, skillID: String, arguments: JSONValue) -> String {
        var canonical = arguments.serialized(options: .sortedKeys)
        // Over the bytes themselves (no iterator per byte); made for every call the model asks for.
        let hash = canonical.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        return sessionID + "/" + skillID + "/" + hexDigits(hash)
    }

    /// `value` as 16 lowercase hex digits, zero-padded.
    static func hexDigits(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for index in 0..<16 {
                let nibble = Int((value >> UInt64(60 - 4 * index)) & 0xf)
                buffer[index] = digits.utf8Start[nibble]
            }
            return 16
        }
    }
}
