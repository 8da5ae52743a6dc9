import SkillJSON

/// The idempotency key of a logical call: the same session, skill and arguments (compared as canonical
/// JSON, keys sorted) give the same key, so a repeated request after a crash or a retry by the model is
/// recognised. Format: `<session>/<skill>/<16 hex digits of FNV-1a over the canonical arguments>`.
enum CallKey {
    static func make(sessionID: String, skillID: String, arguments: JSONValue) -> String {
        // The canonical bytes themselves (no String made of them), hashed without an iterator per byte;
        // made for every call the model asks for.
        let hash = arguments.serializedBytes(options: .sortedKeys).withUnsafeBufferPointer { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        // One string, written once (not three appends).
        var session = sessionID
        var skill = skillID
        return session.withUTF8 { session in
            skill.withUTF8 { skill in
                String(unsafeUninitializedCapacity: session.count + skill.count + 18) { buffer in
                    var count = 0
                    for byte in session { buffer[count] = byte; count += 1 }
                    buffer[count] = UInt8(ascii: "/")
                    count += 1
                    for byte in skill { buffer[count] = byte; count += 1 }
                    buffer[count] = UInt8(ascii: "/")
                    count += 1
                    writeHexDigits(hash, into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                    return count + 16
                }
            }
        }
    }

    /// `value` as 16 lowercase hex digits, zero-padded.
    static func hexDigits(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeHexDigits(value, into: buffer)
            return 16
        }
    }

    /// Writes `value` as 16 lowercase hex digits at the start of `buffer` (at least 16 bytes).
    static func writeHexDigits(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            let nibble = Int((value >> UInt64(60 - 4 * index)) & 0xf)
            buffer[index] = digits.utf8Start[nibble]
        }
    }
}
