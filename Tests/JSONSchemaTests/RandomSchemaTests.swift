import Testing
import JSONSchema

/// Seeded random schemas and instances, including wrongly typed keyword values: compiling either
/// succeeds or throws a `SchemaError` with a pointer, never crashes; `isValid` and `validate` agree.
@Suite struct RandomSchemaTests {
    typealias Generator = SeededGenerator

    static let names = ["a", "b", "c", "time", "tags"]
    static let types: [JSONValue] = ["string", "integer", "number", "object", "array", "boolean", "null", ["string", "null"]]

    static func value(_ random: inout Generator, depth: Int) -> JSONValue {
        switch random.below(depth > 2 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .int(Int64(random.below(20)) - 5)
        case 3: return .double(Double(random.below(100)) / 8)
        case 4: return .string(random.pick(["", "x", "09:30", "2024-01-31T09:30:00Z", "ab", "é🐲"]))
        case 5: return .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<random.below(4)).map { _ in (random.pick(names), value(&random, depth: depth + 1)) }))
        }
    }

    static func schema(_ random: inout Generator, depth: Int) -> JSONValue {
        if depth > 3 || random.below(8) == 0 { return .bool(random.below(3) != 0) }
        var object = JSONObject()
        for _ in 0..<(1 + random.below(3)) {
            let sub = { (random: inout Generator) in schema(&random, depth: depth + 1) }
            switch random.below(22) {
            case 0: object["type"] = random.pick(types)
            case 1: object["properties"] = .object(JSONObject([(random.pick(names), sub(&random)), (random.pick(names), sub(&random))]))
            case 2: object["required"] = [.string(random.pick(names))]
            case 3: object["additionalProperties"] = sub(&random)
            case 4: object["items"] = sub(&random)
            case 5: object["prefixItems"] = [sub(&random)]
            case 6: object["anyOf"] = [sub(&random), sub(&random)]
            case 7: object["oneOf"] = [sub(&random), sub(&random)]
            case 8: object["allOf"] = [sub(&random)]
            case 9: object["not"] = sub(&random)
            case 10: object["if"] = sub(&random); object["then"] = sub(&random)
            case 11: object["unevaluatedProperties"] = sub(&random)
            case 12: object["unevaluatedItems"] = sub(&random)
            case 13: object["contains"] = sub(&random); object["minContains"] = .int(Int64(random.below(3)))
            case 14: object["pattern"] = .string(random.pick(["^[0-9]{2}:[0-9]{2}$", "a+", "(x|y)*$", "[", "\\p{L}"]))
            case 15: object["minimum"] = value(&random, depth: 3)
            case 16: object["maxLength"] = value(&random, depth: 3)
            case 17: object["enum"] = [value(&random, depth: 2), value(&random, depth: 2)]
            case 18: object["const"] = value(&random, depth: 2)
            case 19: object["$ref"] = .string(random.pick(["#", "#/$defs/d", "#/nowhere", "other.json"]))
            case 20: object["$defs"] = ["d": sub(&random)]
            default: object["uniqueItems"] = value(&random, depth: 3)
            }
        }
        return .object(object)
    }

    @Test(arguments: 0..<8) func randomSchemasNeverCrashAndBothEntryPointsAgree(_ seed: UInt64) {
        var random = Generator(state: seed)
        var compiled = 0
        for _ in 0..<150 {
            let document = Self.schema(&random, depth: 0)
            var options = SchemaOptions()
            options.validatesAgainstMetaSchema = random.below(2) == 0
            options.assertFormats = random.below(2) == 0
            let schema: Schema
            do {
                schema = try Schema(compiling: document, options: options)
            } catch {
                #expect(!error.message.isEmpty)
                #expect(error.pointer.isEmpty || error.pointer.hasPrefix("/"))
                continue
            }
            compiled += 1
            for _ in 0..<10 {
                let instance = Self.value(&random, depth: 0)
                let errors = schema.validate(instance, maxErrors: 5)
                #expect(schema.isValid(instance) == errors.isEmpty, "\(document) on \(instance)")
                #expect(errors.count <= 5)
                for error in errors {
                    #expect(!error.message.isEmpty && !error.message.contains("\n"))
                    #expect(error.keywordLocation.isEmpty || error.keywordLocation.hasPrefix("/"))
                }
            }
        }
        #expect(compiled > 30)
    }
}
