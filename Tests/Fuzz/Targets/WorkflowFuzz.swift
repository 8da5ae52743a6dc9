import SkillCalls
import SkillJSON
import SkillWorkflows
import ZoneInfo

/// The workflow file reader (`WorkflowParser`: YAML subset or JSON, every fault with its line and column),
/// then the checker over a fixed tool (references, types, cycles, `deliver`), and the cron reader on the
/// first line.
func fuzzWorkflow(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    if case .success(let workflow) = WorkflowParser.parse(text, file: "fuzz.yaml") {
        var echo = SkillTool(id: "test.echo", description: "echo", parameters: [
            "type": "object", "properties": ["text": ["type": "string"], "count": ["type": "integer"]],
        ])
        echo.outputSchema = ["type": "object", "properties": ["text": ["type": "string"], "items": ["type": "array"]]]
        _ = WorkflowChecker(tools: [echo]).report(of: workflow, source: text)
        _ = workflow.steps.map(\.dependencies)
    }
    if let line = text.split(separator: "\n").first { _ = try? CronExpression(String(line.prefix(200)), zones: ZoneInfoDirectory.system) }
}
