import SkillJSON

/// A skill's summary template from its manifest, e.g. `"It is {time} on {weekday}, {date} ({timezone})."`,
/// filled from a result object: `{field}` is a member of the result, `{a.b}` a nested member (`{items.0}`
/// an array element), `{items.count}` the number of elements of an array (or members of an object) when
/// there is no member named `count`. `{count|event|events}` is the number with the word that agrees with it
/// ("1 event", "3 events"). `{{` and `}}` are literal braces; a `{` that does not start a slot is kept as
/// written.
///
/// Strings go in as they are, numbers as JSON writes them, booleans as yes/no, arrays as a short list
/// ("a, b, c and 4 more"), objects by their name, title or id, else as their first string member with the
/// next values in parentheses (`cat (2)`), else as a few `key: value` pairs.
/// A slot whose field is missing or `null` makes the whole template unusable for that result, so the
/// caller falls back to the generic summary rather than showing a hole.
public struct ResultSummaryTemplate: Sendable, Equatable {
    /// The template text as the manifest gives it.
    public let text: String

    /// Array elements shown before "and N more".
    static let listLimit = 5

    /// A template with this text.
    public init(_ text: String) { self.text = text }

    /// The template filled from `result`, or nil when `result` is not an object or a slot names a field
    /// that is missing or `null`.
    public func render(_ result: JSONValue) -> String? {
        guard case .object = result else { return nil }
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            output += rest[..<open]
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == rest[open] {  // "{{" or "}}"
                output.append(rest[open])
                rest = rest[rest.index(after: after)...]
                continue
            }
            guard rest[open] == "{", let close = rest[after...].firstIndex(of: "}"),
                  let (path, forms) = Self.slot(rest[after..<close])
            else {
                output.append(rest[open])
                rest = rest[after...]
                continue
            }
            guard let value = Self.value(at: path, in: result), value != .null else { return nil }
            output += Self.text(of: value)
            if let forms { output += " " + (value.doubleValue == 1 ? forms.one : forms.other) }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// A slot's field path and, for `{count|event|events}`, the word for one and for any other number; nil
    /// when it is no slot.
    private static func slot(_ text: Substring) -> (path: [Substring], forms: (one: Substring, other: Substring)?)? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard let path = path(parts[0]) else { return nil }
        switch parts.count {
        case 1: return (path, nil)
        case 3 where !parts[1].isEmpty && !parts[2].isEmpty && !parts.contains(where: { $0.contains("{") }):
            return (path, (parts[1], parts[2]))
        default: return nil
        }
    }

    /// The dot-separated segments of a slot, or nil when it is not a field path (letters, digits, `_`, `-`).
    private static func path(_ slot: Substring) -> [Substring]? {
        let segments = slot.split(separator: ".", omittingEmptySubsequences: false)
        let valid = segments.allSatisfy { segment in
            !segment.isEmpty && segment.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        return valid ? segments : nil
    }

    /// The value a path names: object members, array indexes, and `count` of an array or object.
    private static func value(at path: [Substring], in root: JSONValue) -> JSONValue? {
        var current = root
        for segment in path {
            let key = String(segment)
            switch current {
            case .object(let object):
                if let member = object[key] {
                    current = member
                } else if key == "count" {
                    current = .int(Int64(object.count))
                } else {
                    return nil
                }
            case .array(let elements):
                if key == "count" {
                    current = .int(Int64(elements.count))
                } else if let index = Int(key), elements.indices.contains(index) {
                    current = elements[index]
                } else {
                    return nil
                }
            default:
                return nil
            }
        }
        return current
    }

    /// A value in words, compact.
    public static func text(of value: JSONValue, nested: Bool = false) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "none"
        case .bool(let flag): return flag ? "yes" : "no"
        case .int, .double: return value.serialized()
        case .array(let elements):
            if elements.isEmpty { return "none" }
            if nested { return "\(elements.count) item\(elements.count == 1 ? "" : "s")" }
            let shown = elements.prefix(listLimit).map { text(of: $0, nested: true) }
            let more = elements.count - shown.count
            return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
        case .object(let object):
            if let name = ["name", "title", "id", "summary"].lazy.compactMap({ object[$0]?.stringValue }).first { return name }
            let members = object.members.filter { !$0.key.hasPrefix("_") }
            if case .string(let label)? = members.first?.value, members.count > 1 {  // {"word": "cat", "count": 2} → cat (2)
                return "\(label) (" + members.dropFirst().prefix(2).map { text(of: $0.value, nested: true) }.joined(separator: ", ") + ")"
            }
            let joined = members.prefix(3).map { "\($0.key.replacingUnderscores()): \(text(of: $0.value, nested: true))" }
                .joined(separator: ", ")
            return nested ? "(\(joined))" : joined
        }
    }
}
