import SkillJSON

/// Short forms for the JSON Schema (draft 2020-12) of a skill's parameters.
///
/// ```swift
/// ParameterSchema.object([
///     "text": .string("The text to analyse", minLength: 1),
///     "sentences": .integer("How many sentences to keep", minimum: 1, maximum: 20),
///     "extra": .schema(["type": "string", "format": "uri"]),
/// ], required: ["text"])
/// ```
/// The result is a plain ``JSONValue``; ``SchemaProperty/schema(_:)`` takes any other member schema.
public enum ParameterSchema {
    /// An object schema that rejects unknown members (`additionalProperties: false`). A member that is not
    /// required also accepts `null`, meaning "not given" (a Swift optional decodes it as nil): clients that
    /// make every member required — OpenAI's strict tools, the Agents SDK's strict conversion — then send
    /// `null` for what they would have left out, instead of inventing a value (docs/writing-skills.md).
    /// - Parameters:
    ///   - properties: member schemas, in the order they are documented.
    ///   - required: the members that must be present.
    public static func object(_ properties: KeyValuePairs<String, SchemaProperty>, required: [String]) -> JSONValue {
        let needed = Set(required)
        return [
            "type": "object",
            "properties": .object(JSONObject(properties.map { name, property in
                (name, needed.contains(name) ? property.schema : nullable(property.schema))
            })),
            "required": .array(required.map(JSONValue.string)),
            "additionalProperties": false,
        ]
    }

    /// `schema` that also accepts `null`: `null` joins its `type` (and its `enum`, and its `anyOf`
    /// branches); a schema without a `type` or with a `const` becomes `anyOf` of itself and `{"type": "null"}`.
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema, object["const"] == nil else { return wrapped(schema) }
        switch object["type"] {
        case .string(let type)?:
            if type == "null" { return schema }
            object["type"] = [.string(type), "null"]
        case .array(let types)?:
            if !types.contains("null") { object["type"] = .array(types + ["null"]) }
        default:
            return wrapped(schema)
        }
        if case .array(let values)? = object["enum"], !values.contains(.null) { object["enum"] = .array(values + [.null]) }
        if case .array(let branches)? = object["anyOf"] { object["anyOf"] = .array(branches + [["type": "null"]]) }
        if case .array(let branches)? = object["oneOf"] { object["oneOf"] = .array(branches + [["type": "null"]]) }
        return .object(object)
    }

    private static func wrapped(_ schema: JSONValue) -> JSONValue {
        var wrapper: JSONObject = ["anyOf": [schema, ["type": "null"]]]
        if let description = schema["description"] { wrapper["description"] = description }
        return .object(wrapper)
    }
}

/// The schema of one member of a parameters object; see ``ParameterSchema``.
public struct SchemaProperty: Sendable, Equatable {
    /// The member's JSON Schema.
    public var schema: JSONValue

    /// Any member schema, written out.
    public static func schema(_ schema: JSONValue) -> SchemaProperty { SchemaProperty(schema: schema) }

    /// A string schema.
    /// - Parameters:
    ///   - description: what the value means, for the model.
    ///   - format: a JSON Schema format, e.g. `"date-time"`, `"date"`, `"email"`.
    ///   - pattern: an ECMA-262 regular expression the value must match.
    ///   - values: the only values allowed (`enum`).
    ///   - minLength: the fewest characters allowed.
    ///   - maxLength: the most characters allowed.
    public static func string(
        _ description: String, format: String? = nil, pattern: String? = nil, oneOf values: [String]? = nil,
        minLength: Int? = nil, maxLength: Int? = nil
    ) -> SchemaProperty {
        var schema: JSONObject = ["type": "string", "description": .string(description)]
        if let format { schema["format"] = .string(format) }
        if let pattern { schema["pattern"] = .string(pattern) }
        if let values { schema["enum"] = .array(values.map(JSONValue.string)) }
        if let minLength { schema["minLength"] = .int(Int64(minLength)) }
        if let maxLength { schema["maxLength"] = .int(Int64(maxLength)) }
        return SchemaProperty(schema: .object(schema))
    }

    /// An integer schema with optional inclusive bounds.
    public static func integer(_ description: String, minimum: Int64? = nil, maximum: Int64? = nil) -> SchemaProperty {
        var schema: JSONObject = ["type": "integer", "description": .string(description)]
        if let minimum { schema["minimum"] = .int(minimum) }
        if let maximum { schema["maximum"] = .int(maximum) }
        return SchemaProperty(schema: .object(schema))
    }

    /// A number schema with optional inclusive bounds.
    public static func number(_ description: String, minimum: Double? = nil, maximum: Double? = nil) -> SchemaProperty {
        var schema: JSONObject = ["type": "number", "description": .string(description)]
        if let minimum { schema["minimum"] = .double(minimum) }
        if let maximum { schema["maximum"] = .double(maximum) }
        return SchemaProperty(schema: .object(schema))
    }

    /// A boolean schema.
    public static func boolean(_ description: String) -> SchemaProperty {
        SchemaProperty(schema: ["type": "boolean", "description": .string(description)])
    }

    /// An array schema.
    public static func array(
        _ description: String, of items: SchemaProperty, minItems: Int? = nil, maxItems: Int? = nil
    )
        -> SchemaProperty
    {
        var schema: JSONObject = ["type": "array", "description": .string(description), "items": items.schema]
        if let minItems { schema["minItems"] = .int(Int64(minItems)) }
        if let maxItems { schema["maxItems"] = .int(Int64(maxItems)) }
        return SchemaProperty(schema: .object(schema))
    }
}
