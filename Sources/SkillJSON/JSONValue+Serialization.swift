extension JSONValue {
    /// Options for ``serialized(options:)``.
    public struct SerializationOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Two-space indentation and a space after ':'.
        public static let prettyPrinted = SerializationOptions(rawValue: 1)
        /// Object keys sorted by code point instead of insertion order (for stable output).
        public static let sortedKeys = SerializationOptions(rawValue: 2)
    }

    /// The value as JSON text: compact by default, keys in insertion order, non-ASCII left as UTF-8.
    public func serialized(options: SerializationOptions = []) -> String {
        var output = ""
        write(to: &output, options: options, indent: 0)
        return output
    }

    /// The value as UTF-8 JSON bytes.
    public func serializedBytes(options: SerializationOptions = []) -> [UInt8] {
        Array(serialized(options: options).utf8)
    }

    private func write(to output: inout String, options: SerializationOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += JSONValue.format(value)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                if pretty { JSONValue.newline(&output, indent + 1) }
                element.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output += "]"
        case .object(let object):
            if object.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            // Insertion order needs no array of positions (this runs for every object written).
            let order = options.contains(.sortedKeys)
                ? (0..<object.count).sorted { object.member(at: $0).key < object.member(at: $1).key } : nil
            for position in 0..<object.count {
                let (key, value) = object.member(at: order?[position] ?? position)
                if position > 0 { output += "," }
                if pretty { JSONValue.newline(&output, indent + 1) }
                JSONValue.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                value.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Shortest text that reads back as the same double; integral values keep a ".0".
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return "\(value)"
    }

    /// Writes `string` as a JSON string literal with the escapes RFC 8259 requires.
    public static func writeString(_ string: String, to output: inout String) {
        output += "\""
        // Unescaped runs are appended whole (escapes are ASCII, so every cut falls between scalars).
        let utf8 = string.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                utf8.formIndex(after: &index)
                continue
            }
            if runStart != index { output += string[runStart..<index] }
            switch byte {
            case UInt8(ascii: "\""): output += "\\\""
            case UInt8(ascii: "\\"): output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            default:
                let hex = String(byte, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            utf8.formIndex(after: &index)
            runStart = index
        }
        if runStart != utf8.endIndex { output += string[runStart..<utf8.endIndex] }
        output += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { serialized() }
}
