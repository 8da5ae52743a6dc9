/// One keyword's compiled check. Payloads hold everything the check needs, so validating never looks a
/// keyword up in the schema again.
enum Check: @unchecked Sendable {
    /// The `false` schema.
    case never
    case type(JSONTypes)
    case enumeration([JSONValue])
    case constant(JSONValue)
    case multipleOf(JSONValue)
    case maximum(JSONValue)
    case exclusiveMaximum(JSONValue)
    case minimum(JSONValue)
    case exclusiveMinimum(JSONValue)
    case maxLength(Int)
    case minLength(Int)
    case pattern(ECMARegex)
    case format(FormatChecker)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    /// `contains` with its `minContains`/`maxContains` (nil max = unbounded).
    case contains(SchemaNode, min: Int, max: Int?)
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(String, [String])])
    case properties([(String, SchemaNode)])
    case patternProperties([(ECMARegex, SchemaNode)])
    /// `additionalProperties`: names listed in `properties` and the `patternProperties` regexes are not
    /// additional.
    case additionalProperties(SchemaNode, known: Set<String>, patterns: [ECMARegex])
    case propertyNames(SchemaNode)
    case dependentSchemas([(String, SchemaNode)])
    case prefixItems([SchemaNode])
    /// `items`, applying from `start` (the number of `prefixItems`).
    case items(SchemaNode, start: Int)
    case allOf([SchemaNode])
    case anyOf([SchemaNode])
    case oneOf([SchemaNode])
    case not(SchemaNode)
    case conditional(if: SchemaNode, then: SchemaNode?, else: SchemaNode?)
    case ref(SchemaLink)
    /// `$dynamicRef`: `anchor` is the fragment's anchor name when the static target declares a matching
    /// `$dynamicAnchor` (then the outermost resource in the dynamic scope with that anchor wins).
    case dynamicRef(SchemaLink, anchor: String?)
    case unevaluatedProperties(SchemaNode)
    case unevaluatedItems(SchemaNode)
}
