import SkillJSON

/// Strings of a step's arguments with `${{ … }}` in them. A string that is one reference and nothing else
/// becomes the referenced value, with its type (an array stays an array); a reference inside other text is
/// written into it (a string as it is, anything else as JSON).
public enum WorkflowTemplate {
    /// One piece of a string.
    public enum Segment: Sendable, Equatable {
        case text(String)
        case reference(WorkflowReference)
    }

    /// The pieces of `string`, or why it is malformed.
    public static func segments(of string: String) throws(WorkflowSyntaxError) -> [Segment] {
        var result: [Segment] = []
        var rest = Substring(string)
        while let open = rest.range(of: "${{") {
            if open.lowerBound > rest.startIndex { result.append(.text(String(rest[..<open.lowerBound]))) }
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "}}") else {
                throw WorkflowSyntaxError("'${{' without '}}' in \"\(string)\"; close the reference with '}}'")
            }
            result.append(.reference(try WorkflowReference(parsing: String(after[..<close.lowerBound]))))
            rest = after[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.text(String(rest))) }
        return result
    }

    /// Every well-formed reference in `value`'s strings, in order.
    public static func references(in value: JSONValue) -> [WorkflowReference] {
        var found: [WorkflowReference] = []
        visitStrings(value) { string in
            for case .reference(let reference) in (try? segments(of: string)) ?? [] { found.append(reference) }
        }
        return found
    }

    /// Calls `body` with every string in `value` (members' values and array items; not keys).
    static func visitStrings(_ value: JSONValue, _ body: (String) -> Void) {
        switch value {
        case .string(let string): body(string)
        case .array(let items): for item in items { visitStrings(item, body) }
        case .object(let object): for (_, member) in object { visitStrings(member, body) }
        default: break
        }
    }

    /// `value` with every reference replaced by what `lookup` gives for it (nil: nothing there).
    public static func resolve(
        _ value: JSONValue, _ lookup: (WorkflowReference) -> JSONValue?
    ) throws(WorkflowSyntaxError) -> JSONValue {
        switch value {
        case .string(let string):
            let pieces = try segments(of: string)
            if pieces.count == 1, case .reference(let reference) = pieces[0] {
                guard let found = lookup(reference) else { throw missing(reference) }
                return found
            }
            guard pieces.contains(where: { if case .reference = $0 { true } else { false } }) else { return value }
            var text = ""
            for piece in pieces {
                switch piece {
                case .text(let literal): text += literal
                case .reference(let reference):
                    guard let found = lookup(reference) else { throw missing(reference) }
                    if case .string(let inner) = found { text += inner } else { text += found.serialized() }
                }
            }
            return .string(text)
        case .array(let items):
            var resolved: [JSONValue] = []
            for item in items { resolved.append(try resolve(item, lookup)) }
            return .array(resolved)
        case .object(let object):
            var resolved = JSONObject()
            for (key, member) in object { resolved[key] = try resolve(member, lookup) }
            return .object(resolved)
        default:
            return value
        }
    }

    static func missing(_ reference: WorkflowReference) -> WorkflowSyntaxError {
        let whose = reference.stepID.map { "step \($0)'s output" } ?? "the input"
        return WorkflowSyntaxError(
            "\(reference.text): \(whose) has nothing at '\(reference.pointer)'; check the path against what the step returns")
    }
}
