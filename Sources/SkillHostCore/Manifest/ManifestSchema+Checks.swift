import JSONSchema
import SkillJSON

extension ManifestSchema {
    /// A problem inside a skill's `parameters`: pointer relative to `parameters`, and the message.
    struct ParameterProblem {
        var pointer: String
        var message: String
    }

    /// The compiled manifest schema (compiled once; the text is part of the library and tested).
    static let compiled: Schema? = {
        guard let document = try? JSONValue(parsing: text) else { return nil }
        return try? Schema(compiling: document)
    }()

    /// How skills' parameter schemas are compiled and arguments validated: formats assert.
    static var parameterOptions: SchemaOptions {
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

    /// Checks that `parameters` is a draft 2020-12 schema whose root is an object schema.
    static func parameterProblems(_ parameters: JSONValue) -> [ParameterProblem] {
        guard case .object(let object) = parameters else {
            return [ParameterProblem(pointer: "", message: "must be a JSON Schema object with \"type\": \"object\", got \(parameters.typeName)")]
        }
        guard object["type"] == .string("object") else {
            return [ParameterProblem(pointer: "/type", message: "the root of parameters must be an object schema: add \"type\": \"object\"")]
        }
        do {
            _ = try Schema(compiling: parameters, options: parameterOptions)
            return []
        } catch {
            return [ParameterProblem(pointer: error.pointer, message: "is not a valid draft 2020-12 schema: \(error.message)")]
        }
    }
}
