/// Which draft 2020-12 vocabularies a schema's dialect turns on, from its meta-schema's `$vocabulary`.
struct Vocabularies: Equatable {
    var applicator = true
    var unevaluated = true
    var validation = true
    /// Whether `format` asserts because the dialect lists the format-assertion vocabulary.
    var formatAssertion = false

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
}
