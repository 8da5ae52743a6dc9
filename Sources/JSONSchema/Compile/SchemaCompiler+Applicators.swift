/// Compiling the applicator vocabulary: object, array and combinator keywords.
extension SchemaCompiler {
    /// `properties` (fused with `additionalProperties` when there is no `patternProperties`),
    /// `patternProperties`, `additionalProperties`, `propertyNames`, `dependentSchemas`, `dependencies`.
    mutating func objectKeywords(_ schema: JSONObject, _ site: SchemaSite) throws(SchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        var known: [String] = []
        var patterns: [ECMARegex] = []
        var properties: [(String, SchemaNode)]?
        if case .object(let members)? = schema["properties"] {
            var compiled: [(String, SchemaNode)] = []
            for (name, _) in members {
                compiled.append((name, try node(at: site.child("properties", name))))
                known.append(name)
            }
            properties = compiled
        }
        if case .object(let members)? = schema["patternProperties"] {
            var compiled: [(ECMARegex, SchemaNode)] = []
            for (source, _) in members {
                let regex = try compileRegex(source, at: site.child("patternProperties", source).pointer)
                patterns.append(regex)
                compiled.append((regex, try node(at: site.child("patternProperties", source))))
            }
            keywords.append(PatternPropertiesKeyword(compiled))
        }
        var additional: ExtraPropertiesKeyword?
        if schema["additionalProperties"] != nil {
            let compiled = try node(at: site.child("additionalProperties"))
            additional = ExtraPropertiesKeyword(compiled, known: NameSet(known), patterns: patterns, unevaluatedOnly: false)
        }
        switch (properties, additional) {
        case (let properties?, let additional?) where patterns.isEmpty:
            keywords.append(PropertiesKeyword(properties, additional: additional))
        default:
            if let properties { keywords.append(PropertiesKeyword(properties)) }
            if let additional { keywords.append(additional) }
        }
        if schema["propertyNames"] != nil {
            keywords.append(PropertyNamesKeyword(try node(at: site.child("propertyNames"))))
        }
        if case .object(let members)? = schema["dependentSchemas"] {
            var compiled: [(String, SchemaNode)] = []
            for (name, _) in members { compiled.append((name, try node(at: site.child("dependentSchemas", name)))) }
            keywords.append(DependentSchemasKeyword(compiled))
        }
        if case .object(let members)? = schema["dependencies"] {
            // Draft 7's `dependencies`, still accepted: arrays require names, schemas apply.
            var required: [(String, [String])] = []
            var compiled: [(String, SchemaNode)] = []
            for (name, value) in members {
                if case .array(let names) = value {
                    required.append((name, names.compactMap(\.stringValue)))
                } else {
                    compiled.append((name, try node(at: site.child("dependencies", name))))
                }
            }
            if !required.isEmpty { keywords.append(DependentRequiredKeyword(required)) }
            if !compiled.isEmpty { keywords.append(DependentSchemasKeyword(compiled)) }
        }
        return keywords
    }

    /// `prefixItems`, `items`, `contains` (with `minContains`/`maxContains`), and the pre-2020 array forms.
    mutating func arrayKeywords(
        _ schema: JSONObject, _ site: SchemaSite, _ vocabularies: Vocabularies
    ) throws(SchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        if vocabularies.legacyArrays {
            keywords += try legacyItemsKeywords(schema, site)
        } else {
            var prefixCount = 0
            if case .array(let elements)? = schema["prefixItems"] {
                var compiled: [SchemaNode] = []
                for position in elements.indices {
                    compiled.append(try node(at: site.child("prefixItems", String(position))))
                }
                prefixCount = compiled.count
                keywords.append(PrefixItemsKeyword(compiled))
            }
            if schema["items"] != nil {
                keywords.append(ItemsKeyword(try node(at: site.child("items")), start: prefixCount, unevaluatedOnly: false))
            }
        }
        if schema["contains"] != nil {
            var minimum = 1
            var maximum: Int?
            if vocabularies.validation {
                if let value = schema["minContains"] {
                    minimum = try count(value, site.fault("minContains", "minContains must be a non-negative integer"))
                }
                if let value = schema["maxContains"] {
                    maximum = try count(value, site.fault("maxContains", "maxContains must be a non-negative integer"))
                }
            }
            keywords.append(ContainsKeyword(try node(at: site.child("contains")), minimum: minimum, maximum: maximum))
        }
        return keywords
    }

    /// Draft 2019-09 and earlier: `items` as an array is positional, `additionalItems` applies after it.
    private mutating func legacyItemsKeywords(_ schema: JSONObject, _ site: SchemaSite) throws(SchemaError) -> [Keyword] {
        guard let items = schema["items"] else { return [] }
        guard case .array(let elements) = items else {
            return [ItemsKeyword(try node(at: site.child("items")), start: 0, unevaluatedOnly: false)]
        }
        var compiled: [SchemaNode] = []
        for position in elements.indices { compiled.append(try node(at: site.child("items", String(position)))) }
        var keywords: [Keyword] = [PrefixItemsKeyword(compiled)]
        if schema["additionalItems"] != nil {
            keywords.append(ItemsKeyword(try node(at: site.child("additionalItems")), start: compiled.count, unevaluatedOnly: false))
        }
        return keywords
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    mutating func combinatorKeywords(_ schema: JSONObject, _ site: SchemaSite) throws(SchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        for keyword in ["allOf", "anyOf", "oneOf"] {
            guard let value = schema[keyword] else { continue }
            guard case .array(let elements) = value, !elements.isEmpty else {
                throw site.fault(keyword, "\(keyword) must be a non-empty array of schemas")
            }
            var compiled: [SchemaNode] = []
            for position in elements.indices { compiled.append(try node(at: site.child(keyword, String(position)))) }
            switch keyword {
            case "allOf": keywords.append(AllOfKeyword(compiled))
            case "anyOf": keywords.append(AnyOfKeyword(compiled))
            default: keywords.append(OneOfKeyword(compiled))
            }
        }
        if schema["not"] != nil { keywords.append(NotKeyword(try node(at: site.child("not")))) }
        if schema["if"] != nil {
            let condition = try node(at: site.child("if"))
            let then = schema["then"] == nil ? nil : try node(at: site.child("then"))
            let otherwise = schema["else"] == nil ? nil : try node(at: site.child("else"))
            // Kept without then/else too: `if` still contributes annotations to unevaluated*.
            keywords.append(ConditionalKeyword(if: condition, then: then, else: otherwise))
        }
        return keywords
    }
}

/// Where a schema object sits in its document: child locations and faults for its keywords.
struct SchemaSite {
    let location: ResourceRegistry.Location

    /// The location of `keyword` (and deeper tokens) below this schema.
    func child(_ keyword: String, _ rest: String...) -> ResourceRegistry.Location {
        var pointer = location.pointer + "/" + JSONPointer.escape(keyword)
        for token in rest { pointer += "/" + JSONPointer.escape(token) }
        return ResourceRegistry.Location(document: location.document, pointer: pointer)
    }

    /// A fault in `keyword` of this schema.
    func fault(_ keyword: String, _ message: String) -> SchemaError {
        SchemaError(pointer: location.pointer + "/" + JSONPointer.escape(keyword), message: message)
    }
}
