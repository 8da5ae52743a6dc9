import SkillJSON

/// One `SKILL.md` split into its YAML frontmatter (read by `YAMLSubsetParser`) and its Markdown body.
///
/// Accepts a UTF-8 byte order mark and CRLF line ends. Failures carry the reference validator's wording
/// (`skills-ref`), with line and column where there is one.
public struct SkillDocument: Sendable, Equatable {
    /// The frontmatter mapping (every scalar a string).
    public var frontmatter: JSONObject
    /// The Markdown body after the closing `---`, without leading blank lines and trailing white space.
    public var body: String
    /// The line of `SKILL.md` where the body starts (1-based).
    public var bodyFirstLine: Int

    /// Largest `SKILL.md` read (the spec recommends bodies under 5,000 tokens; 1 MiB is far beyond that).
    public static let maximumFileSize = 1 << 20

    /// Why a `SKILL.md` could not be read; `message` is one line.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line: what and where.
        public var message: String
        /// Creates a failure.
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Splits and parses the bytes of a `SKILL.md`.
    public init(bytes: [UInt8]) throws(Failure) {
        let text = try Self.decodeUTF8(bytes)
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        let lines = Self.splitLines(String(String.UnicodeScalarView(scalars)))
        guard let first = lines.first, first.trimmingSpaces() == "---", first.hasPrefix("---") else {
            throw Failure("SKILL.md must start with YAML frontmatter (---)")
        }
        guard let closing = lines.indices.dropFirst().first(where: { lines[$0].hasPrefix("---") && lines[$0].trimmingSpaces() == "---" }) else {
            throw Failure("SKILL.md frontmatter not properly closed with ---")
        }
        let yaml = lines[1..<closing].joined(separator: "\n")
        let value: JSONValue
        do {
            value = try YAMLSubsetParser.parse(yaml, firstLine: 2, allowsFlowSequences: false)
        } catch {
            throw Failure("Invalid YAML in frontmatter: \(error)")
        }
        guard case .object(let object) = value else {
            throw Failure("SKILL.md frontmatter must be a YAML mapping")
        }
        frontmatter = object
        var bodyStart = closing + 1
        while bodyStart < lines.count, lines[bodyStart].trimmingSpaces().isEmpty { bodyStart += 1 }
        bodyFirstLine = bodyStart + 1
        var bodyText = bodyStart < lines.count ? lines[bodyStart...].joined(separator: "\n") : ""
        while let last = bodyText.unicodeScalars.last, last == " " || last == "\n" || last == "\t" {
            bodyText.unicodeScalars.removeLast()
        }
        body = bodyText
    }

    /// The lines of `text` (LF or CRLF ends, which are dropped).
    static func splitLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        if current.last == "\r" { current.removeLast() }
        lines.append(String(current))
        return lines
    }

    /// The bytes as a string, or a failure naming the line and column of the first byte that is not UTF-8.
    static func decodeUTF8(_ bytes: [UInt8]) throws(Failure) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        var offset = 0
        while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            case .error:
                let byte = before < bytes.count ? bytes[before] : 0
                let hex = String(byte, radix: 16, uppercase: true)
                throw Failure(
                    "SKILL.md is not UTF-8 text (byte 0x\(hex.count == 1 ? "0" : "")\(hex) at line \(line), column \(column)); save it as UTF-8")
            }
        }
    }
}
