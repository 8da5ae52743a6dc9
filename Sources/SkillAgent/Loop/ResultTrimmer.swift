import SkillJSON

/// Shrinks a skill result to a character budget before it goes to the model, keeping the essential
/// fields: every top-level key survives as long as possible; long strings are cut, long arrays shortened,
/// deep nesting summarized. A trimmed result carries `"_trimmed"` saying what happened, so the model (and
/// the user reading its answer) knows the data is partial.
public struct ResultTrimmer: Sendable {
    /// The largest serialized size, in characters.
    public var limit: Int

    /// A trimmer for this budget.
    public init(limit: Int) { self.limit = limit }

    /// The result as JSON text within ``limit`` characters.
    public func trimmedText(_ result: JSONValue) -> String {
        let full = result.serialized()
        guard full.count > limit else { return full }
        let note = "result was \(full.count) characters, trimmed to fit \(limit): long strings cut, lists shortened"
        // Progressively harsher passes: (longest string, most array items, deepest level kept).
        let passes: [(Int, Int, Int)] = [(400, 20, 6), (160, 8, 4), (60, 3, 3), (24, 1, 2), (12, 0, 1)]
        for (strings, items, depth) in passes {
            let shrunk = Self.shrink(result, strings: strings, items: items, depth: depth)
            let text = Self.annotate(shrunk, note: note).serialized()
            if text.count <= limit { return text }
        }
        // Last resort: a fixed-size summary that still names the top-level fields.
        var summary = JSONObject()
        summary["_trimmed"] = .string(note)
        if case .object(let object) = result {
            summary["fields"] = .array(object.keys.prefix(20).map { .string($0) })
        }
        let text = JSONValue.object(summary).serialized()
        return text.count <= limit ? text : String(text.prefix(limit))
    }

    private static func annotate(_ value: JSONValue, note: String) -> JSONValue {
        if case .object(var object) = value {
            object["_trimmed"] = .string(note)
            return .object(object)
        }
        return .object(["result": value, "_trimmed": .string(note)])
    }

    private static func shrink(_ value: JSONValue, strings: Int, items: Int, depth: Int) -> JSONValue {
        switch value {
        case .string(let text):
            return text.count > strings ? .string(String(text.prefix(strings)) + "…") : value
        case .array(let elements):
            guard depth > 0 else { return .string("[\(elements.count) items]") }
            var kept = elements.prefix(items).map { shrink($0, strings: strings, items: items, depth: depth - 1) }
            if elements.count > items { kept.append(.string("… \(elements.count - items) more")) }
            return .array(kept)
        case .object(let object):
            guard depth > 0 else { return .string("{\(object.count) fields}") }
            var shrunk = JSONObject()
            for (key, member) in object { shrunk[key] = shrink(member, strings: strings, items: items, depth: depth - 1) }
            return .object(shrunk)
        default:
            return value
        }
    }
}
