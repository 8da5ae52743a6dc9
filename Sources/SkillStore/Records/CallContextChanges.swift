import SkillJSON

/// The session-context keys one call changed, as its `skill_calls.context` column holds them (schema
/// version 4, docs/history.md): they ride in the call's row instead of costing a `session_context` write
/// (one B-tree page fewer per call). Written down as data:
///
/// ```
/// context := {"updated_ms": INTEGER, "values": {KEY: VALUE-TEXT, …}}
/// ```
///
/// `updated_ms` is when the call finished (Unix milliseconds); each `VALUE-TEXT` is the key's value as its
/// own JSON text, held in a JSON string (so it reads back byte for byte). A key's value in a session is the
/// newest of its `session_context` row and the contexts of the session's calls (see
/// ``HistoryStore/context(session:)``). The decoder is strict: anything else is a damaged row.
struct CallContextChanges: Sendable, Equatable {
    /// When the call finished (Unix milliseconds).
    var updatedMilliseconds: Int64
    /// Key → JSON text.
    var values: [String: String]

    /// The column's text for `values` changed at `milliseconds`; nil when nothing changed (the column stays
    /// null). Written byte by byte into one string (it is made for every call that changed a key).
    static func encode(_ values: [String: String], at milliseconds: Int64) -> String? {
        guard !values.isEmpty else { return nil }
        // At most 6 bytes per byte of a key or value (a control character becomes \u00XX).
        var capacity = 64
        for (key, value) in values { capacity += 6 * (key.utf8.count + value.utf8.count) + 4 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func put(_ text: StaticString) {
                text.withUTF8Buffer { for byte in $0 { put(byte) } }
            }
            func quote(_ string: String) {
                put(0x22)
                for byte in string.utf8 {
                    switch byte {
                    case 0x22: put(0x5C); put(0x22)
                    case 0x5C: put(0x5C); put(0x5C)
                    case 0x0A: put(0x5C); put(0x6E)
                    case 0x0D: put(0x5C); put(0x72)
                    case 0x09: put(0x5C); put(0x74)
                    case 0..<0x20:
                        put("\\u00")
                        put(hexDigits[Int(byte >> 4)])
                        put(hexDigits[Int(byte & 0xF)])
                    default: put(byte)
                    }
                }
                put(0x22)
            }
            put("{\"updated_ms\":")
            if milliseconds < 0 { put(0x2D) }
            var magnitude = milliseconds.magnitude
            var length = 1
            var probe = magnitude
            while probe >= 10 {
                probe /= 10
                length += 1
            }
            count += length
            var position = count
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            put(",\"values\":{")
            // One key is the common case: no sort.
            if values.count == 1, let (key, value) = values.first {
                quote(key)
                put(0x3A)
                quote(value)
            } else {
                for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { put(0x2C) }
                    quote(key)
                    put(0x3A)
                    quote(value)
                }
            }
            put("}}")
            return count
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Reads a column's `text`; nil when it is not in the format above.
    static func decode(_ text: String) -> CallContextChanges? {
        guard case .object(let members)? = try? JSONValue(parsing: text), members.count == 2,
            case .int(let milliseconds)? = members["updated_ms"], case .object(let entries)? = members["values"]
        else { return nil }
        var values: [String: String] = [:]
        for (key, entry) in entries {
            guard case .string(let value) = entry else { return nil }
            values[key] = value
        }
        return CallContextChanges(updatedMilliseconds: milliseconds, values: values)
    }
}
