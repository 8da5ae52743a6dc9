/// TEXT value escaping (RFC 5545 section 3.3.11): backslash, semicolon, comma and newline.
public enum ICalText {
    /// The text a TEXT value stands for: `\\` `\;` `\,` `\n` `\N` unescaped; an unknown escape keeps its
    /// character (readers are asked to be lenient).
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// A TEXT value for `text`: backslash, semicolon and comma escaped, line breaks written as `\n`.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Splits a multi-valued TEXT list (e.g. CATEGORIES) at unescaped commas, each part unescaped.
    public static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescape(current))
        return parts
    }
}
