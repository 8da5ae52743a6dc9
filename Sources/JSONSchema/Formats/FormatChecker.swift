/// The check behind one asserted `format`.
struct FormatChecker: Sendable {
    /// The format name, e.g. "date-time".
    let name: String
    /// What a valid value looks like, for messages: "a date-time (RFC 3339, e.g. 2024-01-31T09:30:00Z)".
    let expectation: String
    private let test: @Sendable (String) -> Bool

    /// The checker for a known format; nil for formats this library does not know (they always pass).
    init?(name: String) {
        guard let (expectation, test) = Formats.table[name] else { return nil }
        self.name = name
        self.expectation = expectation
        self.test = test
    }

    /// Whether `value` conforms; formats apply to strings only, other types pass.
    func accepts(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return true }
        return test(text)
    }
}

/// The known formats: name → (expectation, test).
enum Formats {
    static let table: [String: (String, @Sendable (String) -> Bool)] = [
        "date-time": ("a date-time (RFC 3339, e.g. 2024-01-31T09:30:00Z)", DateFormats.isDateTime),
        "date": ("a full date (YYYY-MM-DD, e.g. 2024-01-31)", DateFormats.isDate),
        "time": ("a time with offset (HH:MM:SS and Z or ±HH:MM, e.g. 09:30:00Z)", DateFormats.isTime),
        "duration": ("an ISO 8601 duration (e.g. P3DT4H or PT30M)", DateFormats.isDuration),
    ]
}
