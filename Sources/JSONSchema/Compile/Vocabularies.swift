/// Which draft 2020-12 vocabularies a schema's dialect turns on, from its meta-schema's `$vocabulary`.
struct Vocabularies: Equatable {
    var applicator = true
    var unevaluated = true
    var validation = true
    /// Whether `format` asserts because the dialect lists the format-assertion vocabulary.
    var formatAssertion = false
    /// Whether the document declares an older draft (2019-09 or before): `items` may be an array
    /// (with `additionalItems`) and `prefixItems` means nothing.
    var legacyArrays = false

    /// Every vocabulary of the standard 2020-12 dialect (format annotates).
    static let standard = Vocabularies()

    private static let prefix = "https://json-schema.org/draft/2020-12/vocab/"

    /// The vocabularies a meta-schema document declares; the standard set when it declares none.
    init(metaSchema: JSONValue?) {
        guard case .object(let declared)? = metaSchema?["$vocabulary"] else { return }
        let names = Set(declared.keys)
        applicator = names.contains(Self.prefix + "applicator")
        unevaluated = names.contains(Self.prefix + "unevaluated")
        validation = names.contains(Self.prefix + "validation")
        formatAssertion = names.contains(Self.prefix + "format-assertion")
    }

    init() {}

    /// The vocabularies of a document whose `$schema` names a draft before 2020-12, or nil.
    static func legacy(_ metaSchemaURI: String) -> Vocabularies? {
        let older = ["https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-07/schema",
            "http://json-schema.org/draft-06/schema", "http://json-schema.org/draft-04/schema"]
        guard older.contains(metaSchemaURI) else { return nil }
        var result = Vocabularies()
        result.legacyArrays = true
        return result
    }
}
