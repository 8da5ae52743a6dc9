import JSONSchema
import SkillJSON

/// A run's input: the given object with the input schema's top-level `default`s filled in, valid against
/// the schema.
public enum WorkflowInput {
    /// The input to run `workflow` with, or every fault of `given` (each with its JSON pointer and the fix).
    public static func prepare(_ given: JSONValue, for workflow: Workflow) -> Result<JSONValue, WorkflowFaults> {
        guard case .object(var object) = given else {
            return .failure(fault("", "the input must be a JSON object, e.g. '{\"zone\":\"Europe/Paris\"}'", workflow))
        }
        for (name, property) in workflow.inputs["properties"]?.objectValue ?? JSONObject() where !object.hasMember(name) {
            if let value = property["default"] { object[name] = value }
        }
        let schema: Schema
        do { schema = try Schema(compiling: workflow.inputs) } catch {
            return .failure(fault("", "the workflow's inputs schema is not valid: \(error); fix the workflow file", workflow))
        }
        let errors = schema.validate(.object(object))
        guard errors.isEmpty else {
            return .failure(WorkflowFaults(errors.map {
                WorkflowProblem(file: workflow.file, position: SourcePosition(line: 0, column: 0),
                    "input \($0.description); give an input that matches the workflow's inputs ('skillhost workflow validate' prints them)")
            }))
        }
        return .success(.object(object))
    }

    static func fault(_ pointer: String, _ message: String, _ workflow: Workflow) -> WorkflowFaults {
        WorkflowFaults([WorkflowProblem(file: workflow.file, position: SourcePosition(line: 0, column: 0), message)])
    }
}
