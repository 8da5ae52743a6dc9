import SkillJSON

/// A skill result in plain words on one line, for the offline planner's answers and the CLI's call
/// cards: the skill's summary template (``ResultSummaryTemplate``) when it has one and the result has every
/// field it names, else a `summary`/`message`/`text` field when the skill gives one, else the first few
/// scalar fields.
public enum ResultSummary {
    /// One line of at most `limit` characters; `template` is the skill's manifest `summary`, if any.
    public static func line(for result: JSONValue, template: String? = nil, limit: Int = 120) -> String {
        templated(result, template: template, limit: limit) ?? oneLine(generic(result), limit: limit)
    }

    /// The line from `template` alone, or nil when there is no template or `result` lacks a field it names.
    public static func templated(_ result: JSONValue, template: String?, limit: Int = 120) -> String? {
        template.flatMap { ResultSummaryTemplate($0).render(result) }.map { oneLine($0, limit: limit) }
    }

    /// `text` on one line, cut to `limit` characters with an ellipsis.
    private static func oneLine(_ text: String, limit: Int) -> String {
        // The common case, checked on the bytes: short ASCII-control-free text is its own line (every call
        // that is recorded gets a summary; splitting and counting characters cost more than the rest).
        if text.utf8.count <= limit, !text.utf8.contains(where: { $0 >= 0x0A && $0 <= 0x0D || $0 >= 0x80 }) { return text }
        let single = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return single.count > limit ? String(single.prefix(limit - 1)) + "…" : single
    }

    /// The summary without a template.
    private static func generic(_ result: JSONValue) -> String {
        let text: String
        switch result {
        case .object(let object):
            if let preferred = firstText(of: object, under: preferredFields) {
                text = preferred
            } else {
                let parts = object.members.filter { !$0.key.hasPrefix("_") }.prefix(4).map { key, value in
                    "\(key.replacingUnderscores()): \(scalar(value))"
                }
                text = parts.isEmpty ? "done" : parts.joined(separator: ", ")
            }
        case .array(let elements):
            text = elements.isEmpty ? "no items" : "\(elements.count) item\(elements.count == 1 ? "" : "s"): " + elements.prefix(3).map(scalar).joined(separator: ", ")
        default:
            text = scalar(result)
        }
        return text
    }

    /// The fields whose text stands for a whole result, in order of preference.
    private static let preferredFields = ["summary", "message", "text", "result", "answer"]
    /// The fields whose text stands for a nested object.
    private static let nestedFields = ["summary", "name", "title", "id"]

    /// The text of the first of `fields` that `object` has as a string (every call that is recorded gets a
    /// summary: no list or closure is made per call).
    private static func firstText(of object: JSONObject, under fields: [String]) -> String? {
        for field in fields {
            if case .string(let text)? = object[field] { return text }
        }
        return nil
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "none"
        case .bool(let flag): return flag ? "yes" : "no"
        case .int, .double: return value.serialized()
        case .array(let elements): return "\(elements.count) item\(elements.count == 1 ? "" : "s")"
        case .object(let object):
            if let text = firstText(of: object, under: nestedFields) { return text }
            return "\(object.count) fields"
        }
    }
}

extension String {
    /// `time_zone` → `time zone`.
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
