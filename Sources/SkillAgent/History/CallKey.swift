import SkillJSON

/// The idempotency key of a logical call: the same session, skill and arguments (compared as canonical
/// JSON, keys sorted) give the same key, so a repeated request after a crash or a retry by the model is
/// recognised. Format: `<session>/<skill>/<16 hex digits of FNV-1a over the canonical arguments>`.
enum CallKey {
    static func make(sessionID: String, skillID: String, arguments: JSONValue) -> String {
        let canonical = arguments.serialized(options: .sortedKeys)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonical.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(sessionID)/\(skillID)/" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
