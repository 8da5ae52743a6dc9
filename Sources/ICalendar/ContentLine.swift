/// One property of a component: `NAME;PARAM=value,value:VALUE` (RFC 5545 section 3.1), as read or as
/// built. A line read from a file keeps its unfolded text, so rewriting the file writes it back unchanged.
public struct ContentLine: Sendable, Equatable {
    /// One parameter: its name (uppercase) and values (quotes removed).
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var values: [String]

        public init(_ name: String, _ values: [String]) {
            self.name = name.uppercased()
            self.values = values
        }
    }

    /// The property name, uppercase (`DTSTART`, `X-WR-CALNAME`).
    public private(set) var name: String
    /// The parameters in file order.
    public private(set) var parameters: [Parameter]
    /// The value as written in the file (TEXT values still escaped; see ``ICalText``).
    public private(set) var value: String
    /// The physical line the property starts on; 0 for a property built in memory.
    public let line: Int
    /// The unfolded text read from the file; nil once built or changed in memory.
    public private(set) var original: String?
    /// The physical lines read from the file (joined by CRLF), written back as they were while unchanged.
    public private(set) var originalFolded: String?

    /// A line read from a file that is not a content line (no ':' before the value, a character that no
    /// name may hold): kept so that a rewrite writes it back byte for byte, matched by no property name.
    public init(unreadable text: String, line: Int, folded: String? = nil) {
        self.name = ""
        self.parameters = []
        self.value = ""
        self.line = line
        self.original = text
        self.originalFolded = folded
    }

    /// Whether this is a line kept as read because it is not a content line (see ``init(unreadable:line:folded:)``).
    public var isUnreadable: Bool { name.isEmpty }

    /// A property built in memory.
    public init(_ name: String, _ parameters: [Parameter] = [], value: String) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
        self.line = 0
        self.original = nil
        self.originalFolded = nil
    }

    /// The first value of parameter `name` (any case).
    public func parameter(_ name: String) -> String? {
        let wanted = name.uppercased()
        return parameters.first { $0.name == wanted }?.values.first
    }

    /// The value with TEXT escapes resolved.
    public var text: String { ICalText.unescape(value) }

    /// The unfolded line to write: the original text when unchanged, else built from the parts (parameter
    /// values quoted when they contain `:`, `;` or `,`).
    public var serialized: String {
        if let original { return original }
        var result = name
        for parameter in parameters {
            result += ";" + parameter.name + "="
            result += parameter.values.map { value in
                value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value)\"" : value
            }.joined(separator: ",")
        }
        return result + ":" + value
    }

    /// Reads one unfolded content line.
    /// - Throws: ``ICalendarError`` with the line and the column of the first character that does not fit.
    public init(parsing text: String, line: Int, folded: String? = nil) throws(ICalendarError) {
        // Names, parameters and the separators are ASCII, so the line is read as UTF-8 bytes; values are
        // decoded once each. Columns count bytes, which is characters for the ASCII part before the value.
        let bytes = Array(text.utf8)
        var index = 0
        func fail(_ message: String, _ remedy: String) -> ICalendarError {
            ICalendarError(line: line, column: index + 1, message: message, remedy: remedy)
        }
        func isNameByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D
        }
        func readName(_ what: String) throws(ICalendarError) -> String {
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > start else {
                let found = String(decoding: bytes[index...], as: UTF8.self).first.map { "'\($0)'" } ?? "the end of the line"
                throw fail(
                    "expected a \(what) name (letters, digits, '-') but found \(found)",
                    "write properties as NAME:value or NAME;PARAM=value:value")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self).uppercased()
        }
        let name = try readName("property")
        var parameters: [Parameter] = []
        while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
            index += 1
            let parameterName = try readName("parameter")
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw fail("parameter \(parameterName) of \(name) has no '='", "write it as \(parameterName)=value")
            }
            index += 1
            var values: [String] = []
            repeat {
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                    guard index < bytes.count else {
                        index = start - 1
                        throw fail(
                            "parameter \(parameterName) of \(name) opens a quote that is never closed",
                            "close the value with a double quote")
                    }
                    values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    index += 1
                } else {
                    let start = index
                    while index < bytes.count {
                        let byte = bytes[index]
                        if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                            || byte == UInt8(ascii: "\"")
                        {
                            break
                        }
                        index += 1
                    }
                    values.append(String(decoding: bytes[start..<index], as: UTF8.self))
                }
            } while index < bytes.count && bytes[index] == UInt8(ascii: ",")
            parameters.append(Parameter(parameterName, values))
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw fail(
                "property \(name) has no ':' before its value",
                "write it as \(name):value (quote parameter values that contain ':' ';' or ',')")
        }
        self.name = name
        self.parameters = parameters
        self.value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        self.line = line
        self.original = text
        self.originalFolded = folded
    }

    /// Reads one unfolded content line as calendar programs write it when they are careless: strictly
    /// first, then with the spaces and tabs around the name's and parameters' delimiters (`-`, `;`, `=`,
    /// `,`, `:` before the value, outside quotes) left out, as `REFRESH - INTERVAL; VALUE = DURATION:P2D`
    /// (Python's `icalendar` reads it so too). The line keeps its text as read either way, so a rewrite
    /// writes it back unchanged.
    /// - Throws: the strict reading's ``ICalendarError`` when neither reading fits.
    public static func leniently(_ text: String, line: Int, folded: String? = nil) throws(ICalendarError) -> ContentLine {
        do {
            return try ContentLine(parsing: text, line: line, folded: folded)
        } catch {
            guard let repaired = repaired(text, line: line, folded: folded) else { throw error }
            return repaired
        }
    }

    /// The second, lenient reading of ``leniently(_:line:folded:)``: nil when it does not fit either.
    static func repaired(_ text: String, line: Int, folded: String?) -> ContentLine? {
        guard let squeezed = ContentLine.withoutSpacesAroundDelimiters(Array(text.utf8)),
            var reading = try? ContentLine(parsing: String(decoding: squeezed, as: UTF8.self), line: line, folded: folded)
        else { return nil }
        // Written back as it was read.
        reading.original = text
        return reading
    }

    /// The bytes before the value without the spaces and tabs that surround a delimiter (outside quotes);
    /// nil when there are none.
    static func withoutSpacesAroundDelimiters(_ bytes: [UInt8]) -> [UInt8]? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        func isDelimiter(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
        }
        var result: [UInt8] = []
        var quoted = false
        var changed = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false }
                result.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
                result.append(byte)
            } else if isSpace(byte) {
                var end = index
                while end < bytes.count, isSpace(bytes[end]) { end += 1 }
                let before = result.last.map(isDelimiter) ?? true
                let after = end < bytes.count && isDelimiter(bytes[end])
                if before || after {
                    changed = true
                } else {
                    result.append(contentsOf: bytes[index..<end])
                }
                index = end
                continue
            } else if byte == UInt8(ascii: ":") {
                // The value starts here: it is kept as written.
                result.append(contentsOf: bytes[index...])
                break
            } else {
                result.append(byte)
            }
            index += 1
        }
        return changed ? result : nil
    }

    /// The physical lines to write: as read while unchanged, else the serialized line folded at 75 octets.
    public var folded: String { originalFolded ?? LineFolding.fold(serialized) }
}
