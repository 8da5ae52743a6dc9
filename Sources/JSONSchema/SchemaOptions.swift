/// How a ``Schema`` is compiled and what its validation checks.
public struct SchemaOptions: Sendable {
    /// Whether `format` asserts (a date-time string that is not one fails) instead of only annotating.
    /// A schema whose meta-schema enables the format-assertion vocabulary asserts regardless.
    public var assertFormats = false

    /// Documents that `$ref` may point to, keyed by their absolute URI (without fragment), e.g.
    /// `"http://example.com/address.json"`. Nothing is ever fetched; the 2020-12 meta-schemas are built in.
    public var documents: [String: JSONValue] = [:]

    /// Whether compiling checks the schema against its meta-schema first (default on).
    public var validatesAgainstMetaSchema = true

    /// Creates the default options: formats annotate, no extra documents.
    public init() {}
}
