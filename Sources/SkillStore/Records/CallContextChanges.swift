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
    /// null). Written as bytes into one buffer (it is made for every call that changed a key), its strings
    /// escaped by SkillJSON's writer.
    static func encode(_ values: [String: String], at milliseconds: Int64) -> String? {
        guard !values.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var capacity = 48
        for (key, value) in values { capacity += key.utf8.count + value.utf8.count + 8 }
        bytes.reserveCapacity(capacity)
        bytes.append(contentsOf: #"{"updated_ms":"#.utf8)
        bytes.append(contentsOf: String(milliseconds).utf8)
        bytes.append(contentsOf: #","values":{"#.utf8)
        func member(_ key: String, _ value: String) {
            JSONValue.writeString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONValue.writeString(value, to: &bytes)
        }
        // One key is the common case: no sort.
        if values.count == 1, let (key, value) = values.first {
            member(key, value)
        } else {
            for (index, (key, value)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                member(key, value)
            }
        }
        bytes.append(contentsOf: "}}".utf8)
        return String(decoding: bytes, as: UTF8.self)
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
