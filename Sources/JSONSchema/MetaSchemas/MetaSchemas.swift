/// The built-in draft 2020-12 meta-schemas, so `$ref`s to them and meta-schema checks need no network.
enum MetaSchemas {
    /// The URI of the draft 2020-12 meta-schema, the dialect this library implements.
    static let draft202012 = "https://json-schema.org/draft/2020-12/schema"

    /// Parsed documents by `$id`, parsed once.
    static let documents: [String: JSONValue] = {
        var result: [String: JSONValue] = [:]
        for (uri, text) in texts {
            // The texts are fixed data checked by tests; a parse failure would be a packaging bug.
            if let document = try? JSONValue(parsing: text) { result[uri] = document }
        }
        return result
    }()

    /// The built-in document at `uri`, if there is one.
    static func document(_ uri: String) -> JSONValue? { documents[uri] }

    /// The compiled 2020-12 meta-schema, used to check schemas before they are compiled.
    static let validator: Schema? = {
        var options = SchemaOptions()
        options.validatesAgainstMetaSchema = false
        guard let document = documents[draft202012] else { return nil }
        return try? Schema(compiling: document, options: options)
    }()
}
