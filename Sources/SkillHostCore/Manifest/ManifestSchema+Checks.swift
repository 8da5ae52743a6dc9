import SkillJSON

extension ManifestSchema {
    /// A problem inside a skill's `parameters`: pointer relative to `parameters`, and the message.
    struct ParameterProblem {
        var pointer: String
        var message: String
    }

    /// Problems the manifest schema finds in `document` that the typed reader did not already report.
    static func problems(in document: JSONValue) -> [ManifestProblem] {
        []
    }

    /// Checks that `parameters` is a draft 2020-12 schema whose root is an object schema.
    static func parameterProblems(_ parameters: JSONValue) -> [ParameterProblem] {
        guard case .object(let object) = parameters else {
            return [ParameterProblem(pointer: "", message: "must be a JSON Schema object with \"type\": \"object\", got \(parameters.typeName)")]
        }
        guard object["type"] == .string("object") else {
            return [ParameterProblem(pointer: "/type", message: "the root of parameters must be an object schema: add \"type\": \"object\"")]
        }
        return []
    }
}
