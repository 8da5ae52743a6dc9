/// Compiling one object schema's keywords into ``Keyword`` objects.
extension SchemaCompiler {
    /// The keywords of an object schema, and whether it collects annotations (has `unevaluated*`).
    mutating func compileKeywords(_ schema: JSONObject, at location: Location) throws(SchemaError) -> ([Keyword], Bool) {
        let vocabularies = vocabularies(of: location.document)
        var checks: [Keyword] = []
        var last: [Keyword] = []
        func child(_ keyword: String, _ rest: String...) -> Location {
            var pointer = location.pointer + "/" + JSONPointer.escape(keyword)
            for token in rest { pointer += "/" + JSONPointer.escape(token) }
            return Location(document: location.document, pointer: pointer)
        }
        func fault(_ keyword: String, _ message: String) -> SchemaError {
            SchemaError(pointer: location.pointer + "/" + JSONPointer.escape(keyword), message: message)
        }

        // Core: references.
        if let value = schema["$ref"] {
            guard case .string(let text) = value else { throw fault("$ref", "$ref must be a URI-reference string") }
            checks.append(ReferenceKeyword(try reference(text, from: location, keyword: "$ref", dynamic: false).link, dynamicAnchor: nil))
        }
        if let value = schema["$dynamicRef"] {
            guard case .string(let text) = value else {
                throw fault("$dynamicRef", "$dynamicRef must be a URI-reference string")
            }
            let (link, target) = try reference(text, from: location, keyword: "$dynamicRef", dynamic: true)
            let fragment = URIReference(text).fragment ?? ""
            var anchor: String?
            if case .string(let declared)? = registry.value(at: target)?["$dynamicAnchor"], declared == fragment {
                anchor = fragment
            }
            checks.append(ReferenceKeyword(link, dynamicAnchor: anchor))
        }

        if vocabularies.validation {
            checks += try validationChecks(schema, fault: fault)
        }
        if options.assertFormats || vocabularies.formatAssertion, case .string(let name)? = schema["format"],
            let checker = FormatChecker(name: name)
        {
            checks.append(FormatKeyword(checker))
        }

        if vocabularies.applicator {
            // Objects.
            var known: [String] = []
            var patterns: [ECMARegex] = []
            var properties: [(String, SchemaNode)]?
            if case .object(let members)? = schema["properties"] {
                var compiled: [(String, SchemaNode)] = []
                for (name, _) in members {
                    compiled.append((name, try node(at: child("properties", name))))
                    known.append(name)
                }
                properties = compiled
            }
            if case .object(let members)? = schema["patternProperties"] {
                var compiled: [(ECMARegex, SchemaNode)] = []
                for (source, _) in members {
                    let regex = try compileRegex(source, at: child("patternProperties", source).pointer)
                    patterns.append(regex)
                    compiled.append((regex, try node(at: child("patternProperties", source))))
                }
                checks.append(PatternPropertiesKeyword(compiled))
            }
            var additional: ExtraPropertiesKeyword?
            if schema["additionalProperties"] != nil {
                let compiled = try node(at: child("additionalProperties"))
                additional = ExtraPropertiesKeyword(compiled, known: NameSet(known), patterns: patterns, unevaluatedOnly: false)
            }
            switch (properties, additional) {
            case (let properties?, let additional?) where patterns.isEmpty:
                checks.append(PropertiesKeyword(properties, additional: additional))
            default:
                if let properties { checks.append(PropertiesKeyword(properties)) }
                if let additional { checks.append(additional) }
            }
            if schema["propertyNames"] != nil {
                checks.append(PropertyNamesKeyword(try node(at: child("propertyNames"))))
            }
            if case .object(let members)? = schema["dependentSchemas"] {
                var compiled: [(String, SchemaNode)] = []
                for (name, _) in members { compiled.append((name, try node(at: child("dependentSchemas", name)))) }
                checks.append(DependentSchemasKeyword(compiled))
            }
            if case .object(let members)? = schema["dependencies"] {
                // Draft 7's `dependencies`, still accepted: arrays require names, schemas apply.
                var required: [(String, [String])] = []
                var compiled: [(String, SchemaNode)] = []
                for (name, value) in members {
                    if case .array(let names) = value {
                        required.append((name, names.compactMap(\.stringValue)))
                    } else {
                        compiled.append((name, try node(at: child("dependencies", name))))
                    }
                }
                if !required.isEmpty { checks.append(DependentRequiredKeyword(required)) }
                if !compiled.isEmpty { checks.append(DependentSchemasKeyword(compiled)) }
            }
            // Arrays.
            var prefixCount = 0
            if vocabularies.legacyArrays {
                try compileLegacyItems(schema, into: &checks, child: child)
            } else if case .array(let elements)? = schema["prefixItems"] {
                var compiled: [SchemaNode] = []
                for position in elements.indices { compiled.append(try node(at: child("prefixItems", String(position)))) }
                prefixCount = compiled.count
                checks.append(PrefixItemsKeyword(compiled))
            }
            if schema["items"] != nil, !vocabularies.legacyArrays {
                checks.append(ItemsKeyword(try node(at: child("items")), start: prefixCount, unevaluatedOnly: false))
            }
            if schema["contains"] != nil {
                var minimum = 1
                var maximum: Int?
                if vocabularies.validation {
                    if let value = schema["minContains"] { minimum = try count(value, fault("minContains", "minContains must be a non-negative integer")) }
                    if let value = schema["maxContains"] { maximum = try count(value, fault("maxContains", "maxContains must be a non-negative integer")) }
                }
                checks.append(ContainsKeyword(try node(at: child("contains")), minimum: minimum, maximum: maximum))
            }
            // Combinators.
            for keyword in ["allOf", "anyOf", "oneOf"] {
                guard let value = schema[keyword] else { continue }
                guard case .array(let elements) = value, !elements.isEmpty else {
                    throw fault(keyword, "\(keyword) must be a non-empty array of schemas")
                }
                var compiled: [SchemaNode] = []
                for position in elements.indices { compiled.append(try node(at: child(keyword, String(position)))) }
                switch keyword {
                case "allOf": checks.append(AllOfKeyword(compiled))
                case "anyOf": checks.append(AnyOfKeyword(compiled))
                default: checks.append(OneOfKeyword(compiled))
                }
            }
            if schema["not"] != nil { checks.append(NotKeyword(try node(at: child("not")))) }
            if schema["if"] != nil {
                let condition = try node(at: child("if"))
                let then = schema["then"] == nil ? nil : try node(at: child("then"))
                let otherwise = schema["else"] == nil ? nil : try node(at: child("else"))
                // Kept without then/else too: `if` still contributes annotations to unevaluated*.
                checks.append(ConditionalKeyword(if: condition, then: then, else: otherwise))
            }
        }
        if vocabularies.unevaluated {
            if schema["unevaluatedItems"] != nil {
                last.append(ItemsKeyword(try node(at: child("unevaluatedItems")), start: 0, unevaluatedOnly: true))
            }
            if schema["unevaluatedProperties"] != nil {
                last.append(ExtraPropertiesKeyword(try node(at: child("unevaluatedProperties")), known: NameSet([]), patterns: [], unevaluatedOnly: true))
            }
        }
        if let requiredIndex = checks.firstIndex(where: { $0 is RequiredKeyword }),
            let propertiesIndex = checks.firstIndex(where: { $0 is PropertiesKeyword }),
            let required = checks[requiredIndex] as? RequiredKeyword,
            let fused = (checks[propertiesIndex] as? PropertiesKeyword)?.absorbing(required)
        {
            checks[propertiesIndex] = fused
            checks.remove(at: requiredIndex)
        }
        return (checks + last, !last.isEmpty)
    }

    /// Draft 2019-09 and earlier: `items` as an array is positional, `additionalItems` applies after it.
    mutating func compileLegacyItems(
        _ schema: JSONObject, into checks: inout [Keyword], child: (String, String...) -> Location
    ) throws(SchemaError) {
        guard let items = schema["items"] else { return }
        guard case .array(let elements) = items else {
            checks.append(ItemsKeyword(try node(at: child("items")), start: 0, unevaluatedOnly: false))
            return
        }
        var compiled: [SchemaNode] = []
        for position in elements.indices { compiled.append(try node(at: child("items", String(position)))) }
        checks.append(PrefixItemsKeyword(compiled))
        if schema["additionalItems"] != nil {
            checks.append(ItemsKeyword(try node(at: child("additionalItems")), start: compiled.count, unevaluatedOnly: false))
        }
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
