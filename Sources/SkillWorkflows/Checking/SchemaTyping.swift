import SkillJSON

/// JSON Schema facts the workflow checker and runner need: the types a schema allows, the schema under a
/// pointer into its instances, and the typing of a YAML file's text scalars by the schema they feed (the
/// frontmatter parser reads every scalar as text, as strictyaml does; a parameter's schema says what it is).
public enum SchemaTyping {
    static let allTypes: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]

    /// The JSON types `schema` allows (by `type`, `const`, `enum`; `anyOf`/`oneOf` joined), nil when it does
    /// not say. `integer` is in the set whenever `number` is.
    public static func types(of schema: JSONValue?) -> Set<String>? {
        guard let schema, case .object(let object) = schema else {
            if case .bool(false)? = schema { return [] }
            return nil
        }
        var result: Set<String>?
        func narrow(_ set: Set<String>) { result = result.map { $0.intersection(set) } ?? set }
        if let type = object["type"] {
            var named = Set<String>()
            if let one = type.stringValue { named.insert(one) }
            for item in type.arrayValue ?? [] { if let one = item.stringValue { named.insert(one) } }
            if named.contains("number") { named.insert("integer") }
            narrow(named)
        }
        if let constant = object["const"] { narrow([typeName(constant)]) }
        if let options = object["enum"]?.arrayValue {
            var named = Set(options.map(typeName))
            if named.contains("integer") { named.insert("number") }
            narrow(named)
        }
        for key in ["anyOf", "oneOf"] {
            guard let branches = object[key]?.arrayValue else { continue }
            var union = Set<String>()
            for branch in branches {
                guard let set = types(of: branch) else { union = allTypes; break }
                union.formUnion(set)
            }
            narrow(union)
        }
        for branch in object["allOf"]?.arrayValue ?? [] { if let set = types(of: branch) { narrow(set) } }
        return result
    }

    /// The JSON type of a value (`integer` for a whole number).
    public static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double(let number): number.rounded() == number ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The schema of the values at `pointer` under instances of `schema` (through `properties`, `items`,
    /// `prefixItems`, `additionalProperties`), nil when the schema does not say.
    public static func schema(_ schema: JSONValue?, at pointer: String) -> JSONValue? {
        guard let tokens = JSONPointer.tokens(pointer) else { return nil }
        var current = schema
        for token in tokens {
            guard case .object(let object)? = current else { return nil }
            if let property = object["properties"]?[token] {
                current = property
            } else if let items = object["items"], Int(token) != nil {
                if let prefix = object["prefixItems"]?.arrayValue, let index = Int(token), index < prefix.count {
                    current = prefix[index]
                } else {
                    current = items
                }
            } else if case .object? = object["additionalProperties"] {
                current = object["additionalProperties"]
            } else {
                return nil
            }
        }
        return current
    }

    /// Whether a schema `schema` lists `name` as a property, or allows any property.
    public static func allowsMember(_ name: String, in schema: JSONValue?) -> Bool {
        guard case .object(let object)? = schema else { return true }
        if object["properties"]?[name] != nil { return true }
        if case .bool(false)? = object["additionalProperties"] { return false }
        if object["properties"] != nil, object["additionalProperties"] == nil, object["patternProperties"] == nil {
            return false
        }
        return true
    }

    /// `value` (from a YAML file, its scalars text) typed to fit `schema`: text where the schema allows no
    /// string becomes the integer, number, boolean or null it spells. References (`${{ }}`) stay as they are.
    public static func typed(_ value: JSONValue, for schema: JSONValue?) -> JSONValue {
        switch value {
        case .string(let text):
            guard !text.contains("${{"), let allowed = types(of: schema), !allowed.contains("string") else { return value }
            if allowed.contains("integer"), let number = Int64(text) { return .int(number) }
            if allowed.contains("number"), let number = Double(text), number.isFinite { return .double(number) }
            if allowed.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
            if allowed.contains("null"), text == "null" || text == "~" || text.isEmpty { return .null }
            if allowed.contains("array"), text.isEmpty { return .array([]) }
            return value
        case .array(let items):
            return .array(items.enumerated().map { typed($1, for: Self.schema(schema, at: "/\($0)")) })
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object { result[key] = typed(member, for: Self.schema(schema, at: "/" + JSONPointer.escape(key))) }
            return .object(result)
        default:
            return value
        }
    }

    static let numberKeywords: Set<String> = [
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems",
        "maxItems", "minProperties", "maxProperties", "minContains", "maxContains",
    ]
    static let booleanKeywords: Set<String> = ["uniqueItems", "additionalProperties", "unevaluatedProperties", "items"]
    static let schemaMapKeywords: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
    static let schemaKeywords: Set<String> = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"]
    static let schemaListKeywords: Set<String> = ["anyOf", "oneOf", "allOf", "prefixItems"]

    /// A schema written in YAML, its numbers and booleans typed (`minimum: 1` is 1, `additionalProperties:
    /// false` is false) and its `default`, `const`, `enum` and `examples` typed by the schema's own type.
    public static func typedSchema(_ schema: JSONValue) -> JSONValue {
        guard case .object(let object) = schema else {
            if case .string(let text) = schema, text == "true" || text == "false" { return .bool(text == "true") }
            return schema
        }
        var result = JSONObject()
        for (key, value) in object {
            if numberKeywords.contains(key), let text = value.stringValue, let number = Double(text) {
                result[key] = number.rounded() == number && abs(number) < 1e15 ? .int(Int64(number)) : .double(number)
            } else if booleanKeywords.contains(key), let text = value.stringValue, text == "true" || text == "false" {
                result[key] = .bool(text == "true")
            } else if schemaMapKeywords.contains(key), case .object(let members) = value {
                var typedMembers = JSONObject()
                for (name, member) in members { typedMembers[name] = typedSchema(member) }
                result[key] = .object(typedMembers)
            } else if schemaKeywords.contains(key) {
                result[key] = typedSchema(value)
            } else if schemaListKeywords.contains(key), let items = value.arrayValue {
                result[key] = .array(items.map(typedSchema))
            } else {
                result[key] = value
            }
        }
        let own = JSONValue.object(result)
        for key in ["default", "const"] where result[key] != nil { result[key] = typed(result[key]!, for: own) }
        for key in ["enum", "examples"] { if let items = result[key]?.arrayValue { result[key] = .array(items.map { typed($0, for: own) }) } }
        return .object(result)
    }
}
