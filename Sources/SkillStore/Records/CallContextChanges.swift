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
    /// null).
    static func encode(_ values: [String: String], at milliseconds: Int64) -> String? {
        guard !values.isEmpty else { return nil }
        var text = "{\"updated_ms\":\(milliseconds),\"values\":{"
        var first = true
        // One key is the common case: no sort.
        let pairs = values.count == 1 ? Array(values) : values.sorted { $0.key < $1.key }
        for (key, value) in pairs {
            if !first { text += "," }
            first = false
            appendQuoted(key, to: &text)
            text += ":"
            appendQuoted(value, to: &text)
        }
        text += "}}"
        return text
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

    /// Appends `string` as a JSON string literal (RFC 8259: quote, backslash and control characters escaped).
    static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        var plain = true
        for byte in string.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            plain = false
            break
        }
        if plain {
            text += string
        } else {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = Array("0123456789abcdef")
                    text += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
