/// Compiling one object schema's keywords into ``Keyword`` objects.
extension SchemaCompiler {
    /// The keywords of an object schema, and whether it collects annotations (has `unevaluated*`).
    mutating func compileKeywords(_ schema: JSONObject, at location: Location) throws(SchemaError) -> ([Keyword], Bool) {
        let vocabularies = vocabularies(of: location.document)
        let site = SchemaSite(location: location)
        var keywords = try referenceKeywords(schema, site)
        if vocabularies.validation {
            keywords += try validationKeywords(schema, fault: site.fault)
        }
        if options.assertFormats || vocabularies.formatAssertion, case .string(let name)? = schema["format"],
            let checker = FormatChecker(name: name)
        {
            keywords.append(FormatKeyword(checker))
        }
        if vocabularies.applicator {
            keywords += try objectKeywords(schema, site)
            keywords += try arrayKeywords(schema, site, vocabularies)
            keywords += try combinatorKeywords(schema, site)
        }
        var last: [Keyword] = []
        if vocabularies.unevaluated {
            if schema["unevaluatedItems"] != nil {
                last.append(ItemsKeyword(try node(at: site.child("unevaluatedItems")), start: 0, unevaluatedOnly: true))
            }
            if schema["unevaluatedProperties"] != nil {
                let child = try node(at: site.child("unevaluatedProperties"))
                last.append(ExtraPropertiesKeyword(child, known: NameSet([]), patterns: [], unevaluatedOnly: true))
            }
        }
        if let requiredIndex = keywords.firstIndex(where: { $0 is RequiredKeyword }),
            let propertiesIndex = keywords.firstIndex(where: { $0 is PropertiesKeyword }),
            let required = keywords[requiredIndex] as? RequiredKeyword,
            let fused = (keywords[propertiesIndex] as? PropertiesKeyword)?.absorbing(required)
        {
            keywords[propertiesIndex] = fused
            keywords.remove(at: requiredIndex)
        }
        return (keywords + last, !last.isEmpty)
    }

    /// `$ref` and `$dynamicRef`.
    private mutating func referenceKeywords(_ schema: JSONObject, _ site: SchemaSite) throws(SchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        if let value = schema["$ref"] {
            guard case .string(let text) = value else { throw site.fault("$ref", "$ref must be a URI-reference string") }
            let link = try reference(text, from: site.location, keyword: "$ref", dynamic: false).link
            keywords.append(ReferenceKeyword(link, dynamicAnchor: nil))
        }
        if let value = schema["$dynamicRef"] {
            guard case .string(let text) = value else {
                throw site.fault("$dynamicRef", "$dynamicRef must be a URI-reference string")
            }
            let (link, target) = try reference(text, from: site.location, keyword: "$dynamicRef", dynamic: true)
            let fragment = URIReference(text).fragment ?? ""
            var anchor: String?
            if case .string(let declared)? = registry.value(at: target)?["$dynamicAnchor"], declared == fragment {
                anchor = fragment
            }
            keywords.append(ReferenceKeyword(link, dynamicAnchor: anchor))
        }
        return keywords
    }

    /// A compiled regex, or an error at `pointer` naming what is wrong with it.
    func compileRegex(_ source: String, at pointer: String) throws(SchemaError) -> ECMARegex {
        do {
            return try ECMARegex(source)
        } catch {
            throw SchemaError(pointer: pointer, message: "invalid regular expression /\(source)/: \(error.reason)")
        }
    }

    /// A non-negative integer keyword value (`1.0` counts as 1).
    func count(_ value: JSONValue, _ fault: SchemaError) throws(SchemaError) -> Int {
        guard let number = value.intValue, number >= 0 else { throw fault }
        return number > Int64(Int.max) ? Int.max : Int(number)
    }
}
