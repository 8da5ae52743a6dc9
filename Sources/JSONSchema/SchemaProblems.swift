import SkillJSON

extension Schema {
    /// Every fault in `schema` that ``init(compiling:options:)`` would stop at, not only the first:
    /// each place the meta-schema rejects (an unknown `type`, a keyword with a value of the wrong kind),
    /// each `pattern` or `patternProperties` key that is not a valid ECMA-262 regular expression, and, when
    /// those are clean, the first fault compiling finds (an unresolvable `$ref`, a schema beyond
    /// ``SchemaLimits``). Empty when the schema compiles.
    /// - Parameter limit: the most faults to return.
    public static func problems(in schema: JSONValue, options: SchemaOptions = .init(), limit: Int = 50) -> [SchemaError] {
        var faults: [SchemaError] = []
        if options.validatesAgainstMetaSchema, schema["$schema"] == nil, let metaSchema = MetaSchemas.validator {
            faults += metaSchema.validate(schema, maxErrors: limit).map {
                SchemaError(pointer: $0.instanceLocation, message: $0.message)
            }
        }
        collectRegexFaults(schema, pointer: "", into: &faults)
        if faults.isEmpty {
            do {
                _ = try Schema(compiling: schema, options: options)
            } catch {
                faults.append(error)
            }
        }
        return Array(faults.prefix(limit))
    }

    /// Keywords whose values are data, not subschemas: a `pattern` inside them is not a regex.
    private static let dataKeywords: Set<String> = ["const", "enum", "default", "examples"]

    private static func collectRegexFaults(_ value: JSONValue, pointer: String, into faults: inout [SchemaError]) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                let path = pointer + "/" + JSONPointer.escape(key)
                if dataKeywords.contains(key) { continue }
                if key == "pattern", case .string(let source) = member {
                    if let fault = regexFault(source, at: path) { faults.append(fault) }
                } else if key == "patternProperties", case .object(let patterns) = member {
                    for (source, subschema) in patterns {
                        let subPath = path + "/" + JSONPointer.escape(source)
                        if let fault = regexFault(source, at: subPath) { faults.append(fault) }
                        collectRegexFaults(subschema, pointer: subPath, into: &faults)
                    }
                } else {
                    collectRegexFaults(member, pointer: path, into: &faults)
                }
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                collectRegexFaults(item, pointer: pointer + "/\(index)", into: &faults)
            }
        default:
            break
        }
    }

    private static func regexFault(_ source: String, at pointer: String) -> SchemaError? {
        do {
            _ = try ECMARegex(source)
            return nil
        } catch {
            return SchemaError(pointer: pointer, message: "invalid regular expression /\(source)/: \(error.reason)")
        }
    }
}
