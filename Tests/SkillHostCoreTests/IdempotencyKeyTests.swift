import SkillHostCore
import SkillJSON
import StableHash
import Testing

/// Idempotency keys are stored in the history: the format must never change between versions.
@Suite struct IdempotencyKeyTests {
    /// The key as first written (FNV-1a 64 over the canonical arguments, `String(radix:)` zero-padded).
    static func reference(_ session: String, _ skill: String, _ arguments: JSONValue) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in arguments.serialized(options: .sortedKeys).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(session)/\(skill)/" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test func keysAreTheFormatWrittenBefore() throws {
        let cases: [JSONValue] = [
            [:], ["text": "hello 1"], ["b": 2, "a": ["x", "y"], "c": ["nested": true]], ["é": "🙂", "n": .null],
        ]
        for arguments in cases {
            #expect(IdempotencyKey.make(sessionID: "s-1", skillID: "clock.now", arguments: arguments) == Self.reference("s-1", "clock.now", arguments))
        }
        let reordered = try JSONValue(parsing: #"{"a":1,"b":2}"#)
        let ordered = try JSONValue(parsing: #"{"b":2,"a":1}"#)
        #expect(IdempotencyKey.make(sessionID: "s", skillID: "k", arguments: reordered) == IdempotencyKey.make(sessionID: "s", skillID: "k", arguments: ordered))
    }

    @Test func aCallWithoutAKeyIsKeyedByItsIDInItsSession() {
        #expect(IdempotencyKey.fallback(sessionID: "", callID: "c1") == "c1")
        #expect(IdempotencyKey.fallback(sessionID: "s", callID: "c1") == "s:c1")
    }

    @Test func hexDigitsAreSixteenLowercaseZeroPadded() {
        #expect(FNV1a.hex(UInt64(0)) == "0000000000000000")
        #expect(FNV1a.hex(UInt64(0xaf63_dc4c_8601_ec8c)) == "af63dc4c8601ec8c")
        #expect(FNV1a.hex(UInt64(0xf)) == "000000000000000f")
        #expect(FNV1a.hex(UInt64.max) == "ffffffffffffffff")
        #expect(FNV1a.hex(UInt32(0xf)) == "0000000f")
    }
}
