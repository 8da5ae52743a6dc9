/// Compiling the validation vocabulary's keywords.
extension SchemaCompiler {
    func validationKeywords(
        _ schema: JSONObject, fault: (String, String) -> SchemaError
    ) throws(SchemaError) -> [Keyword] {
        var keywords: [Keyword] = []
        if let value = schema["type"] {
            var types: JSONTypes = []
            let names: [JSONValue]
            switch value {
            case .string: names = [value]
            case .array(let elements): names = elements
            default: throw fault("type", "type must be a type name or an array of type names")
            }
            for name in names {
                guard case .string(let text) = name, let type = JSONTypes(name: text) else {
                    throw fault(
                        "type",
                        "unknown type \(ValueText.describe(name)); use null, boolean, integer, number, string, array or object")
                }
                types.insert(type)
            }
            keywords.append(TypeKeyword(types))
        }
        if let value = schema["const"] { keywords.append(ConstKeyword(value)) }
        if let value = schema["enum"] {
            guard case .array(let elements) = value else { throw fault("enum", "enum must be an array of values") }
            keywords.append(EnumKeyword(elements))
        }
        for keyword in ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"] {
            guard let value = schema[keyword] else { continue }
            guard let number = value.doubleValue else { throw fault(keyword, "\(keyword) must be a number") }
            switch keyword {
            case "multipleOf":
                guard number > 0 else { throw fault(keyword, "multipleOf must be greater than 0") }
                keywords.append(MultipleOfKeyword(value))
            case "maximum": keywords.append(NumberLimitKeyword(.maximum, value))
            case "exclusiveMaximum": keywords.append(NumberLimitKeyword(.exclusiveMaximum, value))
            case "minimum": keywords.append(NumberLimitKeyword(.minimum, value))
            default: keywords.append(NumberLimitKeyword(.exclusiveMinimum, value))
            }
        }
        for keyword in ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"] {
            guard let value = schema[keyword] else { continue }
            guard let number = value.intValue, number >= 0 else {
                throw fault(keyword, "\(keyword) must be a non-negative integer")
            }
            let limit = number > Int64(Int.max) ? Int.max : Int(number)
            let measure: CountLimitKeyword.Measure
            switch keyword.dropFirst(3) {
            case "Length": measure = .characters
            case "Items": measure = .items
            default: measure = .properties
            }
            let isMaximum = keyword.hasPrefix("max")
            // A minimum of 0 holds for every instance.
            if isMaximum || limit > 0 { keywords.append(CountLimitKeyword(measure, limit: limit, isMaximum: isMaximum)) }
        }
        if let value = schema["pattern"] {
            guard case .string(let source) = value else { throw fault("pattern", "pattern must be a string") }
            do {
                keywords.append(PatternKeyword(try ECMARegex(source)))
            } catch {
                throw fault("pattern", "invalid regular expression /\(source)/: \(error.reason)")
            }
        }
        if case .bool(true)? = schema["uniqueItems"] { keywords.append(UniqueItemsKeyword()) }
        if let value = schema["required"] {
            guard case .array(let elements) = value else { throw fault("required", "required must be an array of property names") }
            var names: [String] = []
            for element in elements {
                guard case .string(let name) = element else {
                    throw fault("required", "required must list property names as strings")
                }
                names.append(name)
            }
            if !names.isEmpty { keywords.append(RequiredKeyword(names)) }
        }
        if let value = schema["dependentRequired"] {
            guard case .object(let members) = value else {
                throw fault("dependentRequired", "dependentRequired must map property names to arrays of names")
            }
            var pairs: [(String, [String])] = []
            for (name, list) in members {
                guard case .array(let elements) = list else {
                    throw fault("dependentRequired", "dependentRequired/\(name) must be an array of property names")
                }
                pairs.append((name, elements.compactMap(\.stringValue)))
            }
            keywords.append(DependentRequiredKeyword(pairs))
        }
        return keywords
    }
}
