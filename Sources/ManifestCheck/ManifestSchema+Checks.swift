import JSONSchema
import SkillJSON

extension ManifestSchema {
    /// A problem inside a skill's `parameters`: pointer relative to `parameters`, and the message.
    struct ParameterProblem {
        var pointer: String
        var message: String
    }

    /// The compiled manifest schema (compiled once; the text is part of the library and tested).
    public static let compiled: Schema? = {
        guard let document = try? JSONValue(parsing: text) else { return nil }
        return try? Schema(compiling: document)
    }()

    /// How skills' parameter schemas are compiled and arguments validated: formats assert.
    public static var parameterOptions: SchemaOptions {
        var options = SchemaOptions()
        options.assertFormats = true
        return options
    }

    /// What the manifest schema finds wrong in `document` (run after the typed reader, as a backstop).
    static func problems(in document: JSONValue) -> [ManifestProblem] {
        guard let compiled else {
            return [ManifestProblem(pointer: "", message: "the host's manifest schema does not compile; this is a bug in skillhost")]
        }
        return compiled.validate(document, maxErrors: 20).map { error in
            ManifestProblem(pointer: error.instanceLocation,
                            message: "\(error.message) (manifest schema \(error.keywordLocation))")
        }
    }

    /// Every fault in `parameters`: not an object schema; a `required` name missing from `properties`;
    /// each place the draft 2020-12 meta-schema rejects; each invalid regular expression; and, when those are
    /// clean, what compiling finds (see `Schema.problems(in:)`).
    static func parameterProblems(_ parameters: JSONValue) -> [ParameterProblem] {
        objectSchemaProblems(parameters, member: "parameters", noun: "parameter")
    }

    /// Every fault of a schema whose root must be an object schema (`parameters`, `output_schema`): the
    /// checks of ``parameterProblems(_:)``, with messages naming `member` and its properties as `noun`s.
    static func objectSchemaProblems(_ schema: JSONValue, member: String, noun: String) -> [ParameterProblem] {
        guard case .object(let object) = schema else {
            return [ParameterProblem(pointer: "", message: "must be a JSON Schema object with \"type\": \"object\", got \(schema.typeName)")]
        }
        var problems: [ParameterProblem] = []
        if object["type"] != .string("object") {
            problems.append(ParameterProblem(pointer: "/type", message: "the root of \(member) must be an object schema: add \"type\": \"object\""))
        }
        let properties = object["properties"]?.objectValue
        if case .array(let names)? = object["required"] {
            for (index, name) in names.enumerated() {
                if case .string(let text) = name, properties?[text] == nil {
                    problems.append(ParameterProblem(pointer: "/required/\(index)",
                        message: "required \(noun) \"\(text)\" is not in \"properties\"; describe it there or remove it from \"required\""))
                }
            }
        }
        for fault in Schema.problems(in: schema, options: parameterOptions) {
            problems.append(ParameterProblem(pointer: fault.pointer, message: "is not a valid draft 2020-12 schema: \(fault.message)"))
        }
        return problems
    }

    /// Advice on `parameters` that the host accepts: a schema that lets unknown members through hides a
    /// model's typos.
    static func parameterAdvice(_ parameters: JSONValue) -> [ParameterProblem] {
        guard case .object(let object) = parameters, object["additionalProperties"] != .bool(false) else { return [] }
        return [ParameterProblem(pointer: "/additionalProperties",
            message: "should be false so a misspelt argument is rejected instead of ignored; add \"additionalProperties\": false")]
    }
}
