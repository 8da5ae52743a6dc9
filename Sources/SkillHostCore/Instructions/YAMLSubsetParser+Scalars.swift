import SkillJSON

/// Scalars: plain (with continuation lines), quoted, block (`|`, `>`), and one-line flow sequences.
extension YAMLSubsetParser {
    /// A plain scalar from `column`, folded with its more-indented continuation lines.
    mutating func parsePlain(lineIndex: Int, column: Int, ownerIndent: Int) throws(YAMLSubsetError) -> String {
        var text = try plainLineText(lineIndex, from: column)
        var next = lineIndex + 1
        var blankLines = 0
        index = next
        while next < lines.count {
            let line = lines[next]
            var start = line.indent
            while start < line.scalars.count, line.scalars[start] == " " || line.scalars[start] == "\t" { start += 1 }
            if start >= line.scalars.count {
                blankLines += 1
                next += 1
                continue
            }
            if line.indent <= ownerIndent || line.scalars[start] == "#" { break }
            let more = try plainLineText(next, from: start)
            text += blankLines == 0 ? " " + more : String(repeating: "\n", count: blankLines) + more
            blankLines = 0
            next += 1
            index = next
        }
        return text
    }

    /// The text of one line of a plain scalar, without a trailing comment; refuses `: ` inside it.
    func plainLineText(_ lineIndex: Int, from column: Int) throws(YAMLSubsetError) -> String {
        let scalars = lines[lineIndex].scalars
        var end = column
        while end < scalars.count {
            let scalar = scalars[end]
            if scalar == "#", end > column, scalars[end - 1] == " " || scalars[end - 1] == "\t" { break }
            if scalar == ":", end + 1 == scalars.count || scalars[end + 1] == " " || scalars[end + 1] == "\t" {
                throw error("a plain value cannot contain ': '; put the whole value in quotes", lineIndex, end)
            }
            end += 1
        }
        return String(String.UnicodeScalarView(scalars[column..<end])).trimmingSpaces()
    }

    /// A single- or double-quoted scalar opening at `column`; returns the text and the position after the
    /// closing quote. Line breaks inside fold as YAML says (one space, or a newline per empty line).
    func parseQuoted(lineIndex: Int, column: Int) throws(YAMLSubsetError) -> (String, Int, Int) {
        let quote = lines[lineIndex].scalars[column]
        var result = String.UnicodeScalarView()
        var current = lineIndex
        var position = column + 1
        while true {
            let scalars = lines[current].scalars
            while position < scalars.count {
                let scalar = scalars[position]
                if scalar == quote {
                    if quote == "'", position + 1 < scalars.count, scalars[position + 1] == "'" {
                        result.append("'")
                        position += 2
                        continue
                    }
                    return (String(result), current, position + 1)
                }
                if scalar == "\\", quote == "\"" {
                    if position + 1 == scalars.count {
                        // An escaped line break: the next line joins without a space.
                        position += 1
                        break
                    }
                    let (decoded, width) = try escape(in: scalars, at: position, lineIndex: current)
                    result.append(decoded)
                    position += width
                    continue
                }
                result.append(scalar)
                position += 1
            }
            let escapedBreak = quote == "\"" && !scalars.isEmpty && position == scalars.count
                && scalars.last == "\\" && !endsWithEscapedBackslash(scalars)
            if !escapedBreak {
                while let last = result.last, last == " " || last == "\t" { result.removeLast() }
            }
            // Continue on the next line, folding the break.
            var blankLines = 0
            current += 1
            while current < lines.count, lines[current].scalars.allSatisfy({ $0 == " " || $0 == "\t" }) {
                blankLines += 1
                current += 1
            }
            guard current < lines.count else {
                let kind = quote == "\"" ? "double" : "single"
                throw error("\(kind)-quoted value never closes; add the closing \(quote)", lineIndex, column)
            }
            if !escapedBreak {
                if blankLines == 0 { result.append(" ") } else {
                    result.append(contentsOf: String(repeating: "\n", count: blankLines).unicodeScalars)
                }
            }
            position = 0
            let next = lines[current].scalars
            while position < next.count, next[position] == " " || next[position] == "\t" { position += 1 }
        }
    }

    private func endsWithEscapedBackslash(_ scalars: [Unicode.Scalar]) -> Bool {
        var count = 0
        var position = scalars.count - 1
        while position >= 0, scalars[position] == "\\" { count += 1; position -= 1 }
        return count % 2 == 0
    }

    /// One double-quoted escape at `position` (the backslash): the scalar and how many scalars it spans.
    func escape(in scalars: [Unicode.Scalar], at position: Int, lineIndex: Int) throws(YAMLSubsetError)
        -> (Unicode.Scalar, Int)
    {
        let code = scalars[position + 1]
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
            "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
            "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        if let decoded = simple[code] { return (decoded, 2) }
        let digits: Int
        switch code {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        default:
            throw error("unknown escape '\\\(code)' in a double-quoted value; write '\\\\' for a backslash",
                lineIndex, position)
        }
        guard position + 2 + digits <= scalars.count else {
            throw error("escape '\\\(code)' needs \(digits) hex digits", lineIndex, position)
        }
        var value: UInt32 = 0
        for digit in scalars[(position + 2)..<(position + 2 + digits)] {
            guard let nibble = UInt32(String(digit), radix: 16) else {
                throw error("escape '\\\(code)' needs \(digits) hex digits", lineIndex, position)
            }
            value = value << 4 | nibble
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape '\\\(code)' names no Unicode scalar", lineIndex, position)
        }
        return (scalar, 2 + digits)
    }

    /// A flow sequence `[a, "b", [c]]` that closes on the same line; returns the items and the column
    /// after the closing bracket.
    func parseFlowSequence(lineIndex: Int, column: Int, depth: Int = 1) throws(YAMLSubsetError)
        -> ([JSONValue], Int)
    {
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels", lineIndex, column)
        }
        let scalars = lines[lineIndex].scalars
        var items: [JSONValue] = []
        var position = column + 1
        var expectItem = true
        while true {
            while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
            guard position < scalars.count else {
                throw error("flow sequence never closes on its line; add ']' or write one '- item' per line",
                    lineIndex, column)
            }
            let scalar = scalars[position]
            switch scalar {
            case "]":
                return (items, position + 1)
            case ",":
                if expectItem { throw error("empty item in a flow sequence", lineIndex, position) }
                expectItem = true
                position += 1
                continue
            default:
                break
            }
            if !expectItem { throw error("expected ',' or ']' in a flow sequence", lineIndex, position) }
            switch scalar {
            case "\"", "'":
                let (text, endLine, end) = try parseQuoted(lineIndex: lineIndex, column: position)
                guard endLine == lineIndex else {
                    throw error("flow sequence never closes on its line; add ']'", lineIndex, column)
                }
                items.append(.string(text))
                position = end
            case "[":
                let (nested, end) = try parseFlowSequence(lineIndex: lineIndex, column: position, depth: depth + 1)
                items.append(.array(nested))
                position = end
            case "{":
                throw error("flow mappings ({...}) are not supported; write a block mapping", lineIndex, position)
            case "&", "*", "!":
                throw error("anchors, aliases and tags are not supported", lineIndex, position)
            case "#":
                throw error("flow sequence never closes on its line; add ']'", lineIndex, column)
            default:
                var end = position
                while end < scalars.count, scalars[end] != ",", scalars[end] != "]" {
                    if scalars[end] == "[" || scalars[end] == "{" || scalars[end] == "}" {
                        throw error("'\(scalars[end])' inside a plain flow item; put the item in quotes", lineIndex, end)
                    }
                    if scalars[end] == ":", end + 1 < scalars.count, scalars[end + 1] == " " {
                        throw error("flow mappings are not supported; put the item in quotes", lineIndex, end)
                    }
                    if scalars[end] == "#", scalars[end - 1] == " " {
                        throw error("flow sequence never closes on its line; add ']'", lineIndex, column)
                    }
                    end += 1
                }
                items.append(.string(String(String.UnicodeScalarView(scalars[position..<end])).trimmingSpaces()))
                position = end
            }
            expectItem = false
        }
    }

    /// A literal (`|`) or folded (`>`) block scalar whose header is at `column`.
    mutating func parseBlockScalar(lineIndex: Int, column: Int, ownerIndent: Int) throws(YAMLSubsetError) -> String {
        let header = lines[lineIndex].scalars
        let literal = header[column] == "|"
        var chomping: Unicode.Scalar = " "
        var explicitIndent: Int? = nil
        var position = column + 1
        while position < header.count, header[position] != " ", header[position] != "\t" {
            let scalar = header[position]
            if (scalar == "-" || scalar == "+") && chomping == " " {
                chomping = scalar
            } else if let digit = Int(String(scalar)), digit >= 1, digit <= 9, explicitIndent == nil {
                explicitIndent = digit
            } else {
                throw error("invalid block scalar header; use |, |-, |+, > or >- (with an optional indentation digit)",
                    lineIndex, position)
            }
            position += 1
        }
        try expectLineEnd(lineIndex, position)

        // Find the content indentation.
        var next = lineIndex + 1
        var contentIndent = explicitIndent.map { max(ownerIndent, 0) + $0 }
        if contentIndent == nil {
            var probe = next
            while probe < lines.count {
                let line = lines[probe]
                if line.indent < line.scalars.count {
                    contentIndent = line.indent > ownerIndent ? line.indent : nil
                    break
                }
                probe += 1
            }
        }
        var contentLines: [String?] = []  // nil: an empty line
        if let contentIndent {
            while next < lines.count {
                let line = lines[next]
                let isBlank = line.indent == line.scalars.count
                if isBlank {
                    contentLines.append(line.scalars.count > contentIndent
                        ? String(String.UnicodeScalarView(line.scalars[contentIndent...])) : nil)
                } else if line.indent >= contentIndent {
                    contentLines.append(String(String.UnicodeScalarView(line.scalars[contentIndent...])))
                } else {
                    break
                }
                next += 1
            }
        }
        index = next
        var trailingBlank = 0
        while let last = contentLines.last, last == nil || last!.isEmpty {
            trailingBlank += 1
            contentLines.removeLast()
        }
        var text = ""
        if literal {
            text = contentLines.map { $0 ?? "" }.joined(separator: "\n")
        } else {
            var pendingBreaks = 0
            var previousMoreIndented = false
            var started = false
            for line in contentLines {
                guard let line, !line.isEmpty else { pendingBreaks += 1; continue }
                let moreIndented = line.first == " " || line.first == "\t"
                if !started {
                    text += String(repeating: "\n", count: pendingBreaks)
                } else if moreIndented || previousMoreIndented {
                    text += String(repeating: "\n", count: pendingBreaks + 1)
                } else {
                    text += pendingBreaks == 0 ? " " : String(repeating: "\n", count: pendingBreaks)
                }
                text += line
                started = true
                pendingBreaks = 0
                previousMoreIndented = moreIndented
            }
        }
        switch chomping {
        case "-": return text
        case "+": return contentLines.isEmpty && text.isEmpty
            ? String(repeating: "\n", count: trailingBlank)
            : text + "\n" + String(repeating: "\n", count: trailingBlank)
        default: return text.isEmpty ? "" : text + "\n"
        }
    }
}
