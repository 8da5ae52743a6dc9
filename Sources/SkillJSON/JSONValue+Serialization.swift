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
        String(decoding: serializedBytes(options: options), as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes.
    public func serializedBytes(options: SerializationOptions = []) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(to: &output, options: options, indent: 0)
        return output
    }

    /// Appends the value's JSON text (compact, keys in insertion order) to `output`.
    public func write(to output: inout [UInt8]) {
        write(to: &output, options: [], indent: 0)
    }

    // Written as bytes, not as a String: appending to a String costs far more per piece, and a call's
    // answer is written in many small pieces.
    private func write(to output: inout [UInt8], options: SerializationOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        switch self {
        case .null: JSONValue.append("null", to: &output)
        case .bool(let value): JSONValue.append(value ? "true" : "false", to: &output)
        case .int(let value): JSONValue.append(String(value), to: &output)
        case .double(let value): JSONValue.append(JSONValue.format(value), to: &output)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(UInt8(ascii: "["))
                output.append(UInt8(ascii: "]"))
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { JSONValue.newline(&output, indent + 1) }
                element.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                output.append(UInt8(ascii: "{"))
                output.append(UInt8(ascii: "}"))
                return
            }
            output.append(UInt8(ascii: "{"))
            // Insertion order needs no array of positions (this runs for every object written).
            let order = options.contains(.sortedKeys)
                ? (0..<object.count).sorted { object.member(at: $0).key < object.member(at: $1).key } : nil
            for position in 0..<object.count {
                let (key, value) = object.member(at: order?[position] ?? position)
                if position > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { JSONValue.newline(&output, indent + 1) }
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                value.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], _ indent: Int) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// Shortest text that reads back as the same double; integral values keep a ".0".
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) + ".0" }
        return "\(value)"
    }

    /// Writes `string` as a JSON string literal with the escapes RFC 8259 requires.
    public static func writeString(_ string: String, to output: inout String) {
        var bytes: [UInt8] = []
        writeString(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal with the escapes RFC 8259 requires to `output`.
    public static func writeString(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { writeString(utf8: $0, to: &output) }
    }

    /// Appends the UTF-8 text `utf8` as a JSON string literal with the escapes RFC 8259 requires.
    public static func writeString(utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        do {
            // Unescaped runs are copied whole; eight bytes at a time are skipped while none needs an escape.
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                if count - index >= 8, let base = utf8.baseAddress,
                   !JSONParser.needsAnEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let at = index - 1
                if runStart < at { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<at])) }
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
                runStart = index
            }
            if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { serialized() }
}
