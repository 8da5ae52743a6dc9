import SkillJSON

/// Reads the subset of YAML that Agent Skills frontmatter uses into a `JSONValue` tree.
///
/// The subset: block mappings and sequences (nested, and `- key: value` items), flow sequences on one line
/// (`[a, "b"]`), plain, single-quoted and double-quoted scalars (with YAML escapes, and continuation lines),
/// literal `|` and folded `>` block scalars (chomping `-`/`+`, indentation digit), comments, CRLF line ends.
/// Every scalar is read as a string, as the reference validator's `strictyaml` reads it (so `version: 1.10`
/// stays `"1.10"`); an empty value is `""`.
///
/// Anything else (anchors, aliases, tags, flow mappings, directives, complex keys, duplicate keys, tabs as
/// indentation, control characters) is a `YAMLSubsetError` with line and column, never a silent misread.
/// Every loop advances through the input and nesting is capped, so no input crashes or hangs it.
public struct YAMLSubsetParser {
    /// Deepest nesting of mappings and sequences accepted.
    public static let maximumDepth = 32

    /// Parses `text`, whose first line is line `firstLine` of its file (for error positions).
    /// With `allowsFlowSequences` false, `[...]` is refused as the reference validator's `strictyaml` does.
    public static func parse(_ text: String, firstLine: Int = 1, allowsFlowSequences: Bool = true)
        throws(YAMLSubsetError) -> JSONValue
    {
        var parser = YAMLSubsetParser(text: text, firstLine: firstLine)
        parser.allowsFlowSequences = allowsFlowSequences
        return try parser.parseDocument()
    }

    struct Line {
        var number: Int
        var scalars: [Unicode.Scalar]
        var indent: Int
    }

    var lines: [Line]
    var index = 0
    var allowsFlowSequences = true

    init(text: String, firstLine: Int) {
        var result: [Line] = []
        var current: [Unicode.Scalar] = []
        var number = firstLine
        func finish() {
            if current.last == "\r" { current.removeLast() }
            var indent = 0
            while indent < current.count, current[indent] == " " { indent += 1 }
            result.append(Line(number: number, scalars: current, indent: indent))
            current = []
            number += 1
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" { finish() } else { current.append(scalar) }
        }
        if !current.isEmpty { finish() }
        lines = result
    }

    // MARK: Structure

    mutating func parseDocument() throws(YAMLSubsetError) -> JSONValue {
        try checkCharacters()
        guard let first = nextContent() else { return .null }
        try checkIndentation(first)
        let line = lines[first]
        let value: JSONValue
        let opening = line.scalars[line.indent]
        let structural = opening == "?" || opening == "%" || line.scalars[line.indent...].starts(with: ["-", "-", "-"])
            || line.scalars[line.indent...].starts(with: [".", ".", "."])
        if structural || isSequenceItem(first) || keyColon(in: line, from: line.indent) != nil || isQuotedKey(first) {
            value = try parseNode(depth: 1)
        } else {
            value = try parseInlineValue(lineIndex: first, column: line.indent, ownerIndent: -1)
        }
        if let extra = nextContent() {
            throw error("unexpected text after the document's top-level value; check its indentation", extra,
                lines[extra].indent)
        }
        return value
    }

    mutating func parseNode(depth: Int) throws(YAMLSubsetError) -> JSONValue {
        guard let at = nextContent() else { return .string("") }
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels", at, lines[at].indent)
        }
        return isSequenceItem(at)
            ? try parseSequence(indent: lines[at].indent, depth: depth)
            : try parseMapping(indent: lines[at].indent, depth: depth)
    }

    mutating func parseMapping(indent: Int, depth: Int) throws(YAMLSubsetError) -> JSONValue {
        var object = JSONObject()
        while let at = nextContent() {
            let line = lines[at]
            try checkIndentation(at)
            if line.indent < indent { break }
            if line.indent > indent {
                throw error("unexpected indentation; align this key with the keys above it", at, line.indent)
            }
            if isSequenceItem(at) {
                if depth == 1 || object.isEmpty {
                    throw error("a sequence item ('- ') cannot stand among mapping keys", at, indent)
                }
                break
            }
            let (key, valueColumn) = try parseKey(at)
            if object.hasMember(key) {
                throw error("duplicate key '\(key)'; keep one of them", at, indent)
            }
            object[key] = try parseValue(lineIndex: at, column: valueColumn, ownerIndent: indent, depth: depth)
        }
        return .object(object)
    }

    mutating func parseSequence(indent: Int, depth: Int) throws(YAMLSubsetError) -> JSONValue {
        var items: [JSONValue] = []
        while let at = nextContent() {
            let line = lines[at]
            try checkIndentation(at)
            if line.indent < indent { break }
            if line.indent > indent {
                throw error("unexpected indentation; align this item with the items above it", at, line.indent)
            }
            guard isSequenceItem(at) else { break }
            var column = indent + 1
            while column < line.scalars.count, line.scalars[column] == " " { column += 1 }
            if column < line.scalars.count, line.scalars[column] == "\t" {
                throw error("tabs cannot indent YAML; use spaces", at, column)
            }
            let rest = column < line.scalars.count ? line.scalars[column] : nil
            if rest == nil || rest == "#" {
                index = at + 1
                if let next = nextContent(), lines[next].indent > indent {
                    items.append(try parseNode(depth: depth + 1))
                } else {
                    items.append(.string(""))
                }
            } else if isSequenceItem(at, from: column) || keyColon(in: line, from: column) != nil
                || isQuotedKey(at, from: column)
            {
                lines[at].indent = column
                index = at
                items.append(try parseNode(depth: depth + 1))
            } else {
                items.append(try parseValue(lineIndex: at, column: column, ownerIndent: indent, depth: depth))
            }
        }
        return .array(items)
    }

    /// The value after a key (or of a sequence item) starting at `column` of line `lineIndex`.
    mutating func parseValue(lineIndex: Int, column: Int, ownerIndent: Int, depth: Int) throws(YAMLSubsetError)
        -> JSONValue
    {
        let line = lines[lineIndex]
        var column = column
        while column < line.scalars.count, line.scalars[column] == " " || line.scalars[column] == "\t" {
            column += 1
        }
        if column >= line.scalars.count || line.scalars[column] == "#" {
            index = lineIndex + 1
            guard let next = nextContent() else { return .string("") }
            if lines[next].indent > ownerIndent { return try parseNode(depth: depth + 1) }
            if lines[next].indent == ownerIndent, isSequenceItem(next), depth < Self.maximumDepth {
                return try parseSequence(indent: ownerIndent, depth: depth + 1)
            }
            return .string("")
        }
        return try parseInlineValue(lineIndex: lineIndex, column: column, ownerIndent: ownerIndent)
    }

    /// A scalar or flow sequence that starts on the line, at `column`.
    mutating func parseInlineValue(lineIndex: Int, column: Int, ownerIndent: Int) throws(YAMLSubsetError)
        -> JSONValue
    {
        let scalars = lines[lineIndex].scalars
        switch scalars[column] {
        case "&": throw error("anchors (&name) are not supported; write the value out", lineIndex, column)
        case "*": throw error("aliases (*name) are not supported; write the value out", lineIndex, column)
        case "!": throw error("tags (!tag) are not supported; remove the tag", lineIndex, column)
        case "{":
            throw error("flow mappings ({...}) are not supported; write a block mapping, one key per line",
                lineIndex, column)
        case "%", "@", "`":
            throw error("'\(scalars[column])' cannot start a plain value; put the value in quotes", lineIndex, column)
        case "|", ">":
            return .string(try parseBlockScalar(lineIndex: lineIndex, column: column, ownerIndent: ownerIndent))
        case "\"", "'":
            let (text, endLine, endColumn) = try parseQuoted(lineIndex: lineIndex, column: column)
            try expectLineEnd(endLine, endColumn)
            index = endLine + 1
            return .string(text)
        case "[":
            guard allowsFlowSequences else {
                throw error("flow sequences ([...]) are not allowed in SKILL.md frontmatter (strictyaml refuses them); write one '- item' per line",
                    lineIndex, column)
            }
            let (items, end) = try parseFlowSequence(lineIndex: lineIndex, column: column)
            try expectLineEnd(lineIndex, end)
            index = lineIndex + 1
            return .array(items)
        default:
            return .string(try parsePlain(lineIndex: lineIndex, column: column, ownerIndent: ownerIndent))
        }
    }

    // MARK: Keys

    /// The key of a mapping line and the column just after its colon.
    mutating func parseKey(_ lineIndex: Int) throws(YAMLSubsetError) -> (String, Int) {
        let line = lines[lineIndex]
        let start = line.indent
        let first = line.scalars[start]
        if first == "\"" || first == "'" {
            let (key, endLine, end) = try parseQuoted(lineIndex: lineIndex, column: start)
            guard endLine == lineIndex, end < line.scalars.count, line.scalars[end] == ":",
                end + 1 == line.scalars.count || line.scalars[end + 1] == " " || line.scalars[end + 1] == "\t"
            else { throw error("expected ':' after the quoted key", lineIndex, min(end, line.scalars.count)) }
            return (key, end + 1)
        }
        switch first {
        case "?": throw error("complex keys ('? ') are not supported; write 'key: value'", lineIndex, start)
        case "&": throw error("anchors (&name) are not supported; write the value out", lineIndex, start)
        case "*": throw error("aliases (*name) are not supported; write the value out", lineIndex, start)
        case "!": throw error("tags (!tag) are not supported; remove the tag", lineIndex, start)
        case "%": throw error("directives (%) are not supported; remove the line", lineIndex, start)
        case "{", "[": throw error("flow collections cannot be keys; write 'key: value'", lineIndex, start)
        default: break
        }
        if line.scalars[start...].starts(with: ["-", "-", "-"]) || line.scalars[start...].starts(with: [".", ".", "."]) {
            throw error("multiple documents are not supported; the frontmatter is one mapping", lineIndex, start)
        }
        guard let colon = keyColon(in: line, from: start) else {
            throw error("expected 'key: value' (a key followed by ': ')", lineIndex, start)
        }
        let key = String(String.UnicodeScalarView(line.scalars[start..<colon])).trimmingSpaces()
        return (key, colon + 1)
    }

    /// Where the key's colon is when the text from `column` is `key: ...` (plain key), else nil.
    func keyColon(in line: Line, from column: Int) -> Int? {
        let scalars = line.scalars
        guard column < scalars.count else { return nil }
        switch scalars[column] {
        case "\"", "'", "[", "{", "#", "|", ">": return nil
        default: break
        }
        var position = column
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "#", position > column, scalars[position - 1] == " " || scalars[position - 1] == "\t" {
                return nil
            }
            if scalar == ":", position + 1 == scalars.count || scalars[position + 1] == " " || scalars[position + 1] == "\t" {
                return position > column ? position : nil
            }
            position += 1
        }
        return nil
    }

    /// Whether the text from `column` (default: the indentation) is a quoted key followed by ':'.
    func isQuotedKey(_ lineIndex: Int, from column: Int? = nil) -> Bool {
        let scalars = lines[lineIndex].scalars
        let start = column ?? lines[lineIndex].indent
        guard start < scalars.count, scalars[start] == "\"" || scalars[start] == "'" else { return false }
        let quote = scalars[start]
        var position = start + 1
        while position < scalars.count {
            if scalars[position] == "\\", quote == "\"" { position += 2; continue }
            if scalars[position] == quote {
                if quote == "'", position + 1 < scalars.count, scalars[position + 1] == "'" { position += 2; continue }
                var after = position + 1
                while after < scalars.count, scalars[after] == " " { after += 1 }
                return after < scalars.count && scalars[after] == ":"
            }
            position += 1
        }
        return false
    }

    func isSequenceItem(_ lineIndex: Int, from column: Int? = nil) -> Bool {
        let scalars = lines[lineIndex].scalars
        let start = column ?? lines[lineIndex].indent
        guard start < scalars.count, scalars[start] == "-" else { return false }
        return start + 1 == scalars.count || scalars[start + 1] == " " || scalars[start + 1] == "\t"
    }

    // MARK: Helpers

    /// Index of the next line that is not blank or a comment (the cursor moves there), or nil at the end.
    mutating func nextContent() -> Int? {
        while index < lines.count {
            let line = lines[index]
            var position = line.indent
            while position < line.scalars.count, line.scalars[position] == " " || line.scalars[position] == "\t" {
                position += 1
            }
            if position < line.scalars.count, line.scalars[position] != "#" {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Throws unless only spaces and a comment follow `column` on the line.
    func expectLineEnd(_ lineIndex: Int, _ column: Int) throws(YAMLSubsetError) {
        let scalars = lines[lineIndex].scalars
        var position = column
        while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
        guard position < scalars.count else { return }
        if scalars[position] == "#", position > column { return }
        if scalars[position] == ":" {
            throw error("a key cannot be a quoted or flow value here; check the line's indentation", lineIndex, position)
        }
        throw error("unexpected text after the value; quote the whole value", lineIndex, position)
    }

    /// Refuses characters YAML does not allow in a stream (control characters), and tabs as indentation.
    func checkCharacters() throws(YAMLSubsetError) {
        for (lineIndex, line) in lines.enumerated() {
            for (column, scalar) in line.scalars.enumerated() {
                let value = scalar.value
                let control = (value < 0x20 && value != 0x09) || value == 0x7F
                    || (value >= 0x80 && value < 0xA0 && value != 0x85) || value == 0xFFFE || value == 0xFFFF
                if control {
                    let hex = String(value, radix: 16, uppercase: true)
                    throw error(
                        "control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) is not allowed in YAML; remove it",
                        lineIndex, column)
                }
            }
        }
    }

    /// Throws when line `lineIndex`, read as structure, is indented with a tab.
    func checkIndentation(_ lineIndex: Int) throws(YAMLSubsetError) {
        let line = lines[lineIndex]
        if line.indent < line.scalars.count, line.scalars[line.indent] == "\t" {
            throw error("tabs cannot indent YAML; use spaces", lineIndex, line.indent)
        }
    }

    func error(_ reason: String, _ lineIndex: Int, _ column: Int) -> YAMLSubsetError {
        let number = lineIndex < lines.count ? lines[lineIndex].number : (lines.last?.number ?? 0) + 1
        return YAMLSubsetError(reason, line: number, column: column + 1)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
