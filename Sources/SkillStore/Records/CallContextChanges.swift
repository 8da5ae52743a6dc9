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
        // The frame is at most 47 bytes (a 20-character Int64); each member at most 6 bytes per byte of its key
        // and value (a control character becomes \u00XX) plus 6 (four quotes, a colon, a comma), whatever the
        // key or value holds: the writer never passes the capacity, even for an empty value.
        var capacity = 64
        for (key, value) in values { capacity += 6 * (key.utf8.count + value.utf8.count) + 6 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(base: buffer.baseAddress!)
            writer.put("{\"updated_ms\":")
            writer.put(milliseconds)
            writer.put(",\"values\":{")
            // One key is the common case: no sort.
            if values.count == 1, let (key, value) = values.first {
                writer.member(key, value)
            } else {
                for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { writer.put(UInt8(ascii: ",")) }
                    writer.member(key, value)
                }
            }
            writer.put("}}")
            return writer.count
        }
    }

    /// Writes bytes at `base` (the caller made room for them).
    private struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        mutating func put(_ text: StaticString) {
            for index in 0..<text.utf8CodeUnitCount { put(text.utf8Start[index]) }
        }

        /// A decimal integer.
        mutating func put(_ value: Int64) {
            if value < 0 { put(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
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
                base[position] = UInt8(truncatingIfNeeded: magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
            } while magnitude > 0
        }

        /// `"key":"value"`.
        mutating func member(_ key: String, _ value: String) {
            quote(key)
            put(UInt8(ascii: ":"))
            quote(value)
        }

        /// `string` as a JSON string literal (RFC 8259: quote, backslash and control characters escaped).
        mutating func quote(_ string: String) {
            put(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    put(UInt8(ascii: "\\"))
                    put(byte)
                case 0x0A: put("\\n")
                case 0x0D: put("\\r")
                case 0x09: put("\\t")
                case 0..<0x20:
                    let digits: StaticString = "0123456789abcdef"
                    put("\\u00")
                    put(digits.utf8Start[Int(byte >> 4)])
                    put(digits.utf8Start[Int(byte & 0xF)])
                default: put(byte)
                }
            }
            put(UInt8(ascii: "\""))
        }
    }

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
