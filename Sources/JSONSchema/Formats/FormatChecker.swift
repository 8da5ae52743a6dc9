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
        "email": ("an email address (e.g. ada@example.com)", NetworkFormats.isEmail),
        "idn-email": ("an internationalized email address (e.g. ada@bücher.example)", NetworkFormats.isInternationalEmail),
        "hostname": ("a host name (letters, digits, hyphens and dots, e.g. api.example.com)", NetworkFormats.isHostname),
        "idn-hostname": ("an internationalized host name (e.g. bücher.example)", IDNA.isHostname),
        "ipv4": ("an IPv4 address (e.g. 192.168.0.1)", NetworkFormats.isIPv4),
        "ipv6": ("an IPv6 address (e.g. 2001:db8::1)", NetworkFormats.isIPv6),
        "uri": ("an absolute URI with a scheme (e.g. https://example.com/a)", URIFormats.isURI),
        "uri-reference": ("a URI or relative reference (e.g. /a/b?c)", URIFormats.isURIReference),
        "iri": ("an absolute IRI (e.g. https://例え.jp/a)", URIFormats.isIRI),
        "iri-reference": ("an IRI or relative IRI reference", URIFormats.isIRIReference),
        "uri-template": ("a URI template (RFC 6570, e.g. /users/{id})", URIFormats.isURITemplate),
        "uuid": ("a UUID (8-4-4-4-12 hex digits, e.g. 123e4567-e89b-12d3-a456-426614174000)", NetworkFormats.isUUID),
        "json-pointer": ("a JSON pointer (e.g. /items/0)", PointerFormats.isJSONPointer),
        "relative-json-pointer": ("a relative JSON pointer (e.g. 1/name or 0#)", PointerFormats.isRelativeJSONPointer),
        "regex": ("an ECMA-262 regular expression", PointerFormats.isRegex),
    ]
}
