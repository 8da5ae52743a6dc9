import SkillHostCore
import SkillJSON

/// Reads a workflow file: JSON (text that starts with `{`) or the YAML subset SKILL.md frontmatter uses
/// (``YAMLSubsetParser``). Reports every fault it finds at once, each with its line and column.
public enum WorkflowParser {
    static let topKeys: Set<String> = ["name", "description", "inputs", "steps", "deliver"]
    static let stepKeys: Set<String> = ["id", "skill", "arguments", "needs", "if", "retry", "timeout", "continue-on-error"]

    /// The workflow in `text` (read from `file`), or every fault that keeps it from being one.
    public static func parse(_ text: String, file: String) -> Result<Workflow, WorkflowFaults> {
        let map = WorkflowSourceMap(text)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        let root: JSONValue
        let isJSON = trimmed.first == "{"
        do {
            if isJSON {
                root = try JSONValue(parsing: text)
            } else {
                root = try YAMLSubsetParser.parse(text)
            }
        } catch let error as JSONParseError {
            return .failure(WorkflowFaults([WorkflowProblem(
                file: file, position: SourcePosition(line: error.line, column: error.column), "not valid JSON: \(error.reason)")]))
        } catch let error as YAMLSubsetError {
            return .failure(WorkflowFaults([WorkflowProblem(
                file: file, position: SourcePosition(line: error.line, column: error.column), error.reason)]))
        } catch {
            return .failure(WorkflowFaults([WorkflowProblem(file: file, position: SourcePosition(line: 1, column: 1), "\(error)")]))
        }
        var reader = Reader(file: file, map: map, isText: !isJSON)
        guard let workflow = reader.workflow(root), reader.problems.isEmpty else {
            return .failure(WorkflowFaults(reader.problems.sorted {
                ($0.position.line, $0.position.column) < ($1.position.line, $1.position.column)
            }))
        }
        return .success(workflow)
    }

    /// Reads `path` and parses it.
    public static func load(path: String) -> Result<Workflow, WorkflowFaults> {
        guard let text = String(contentsOfPath: path) else {
            return .failure(WorkflowFaults([WorkflowProblem(
                file: path, position: SourcePosition(line: 0, column: 0),
                "cannot read the workflow (missing, unreadable, over 4 MiB or not UTF-8); check the path and save it as UTF-8 text")]))
        }
        return parse(text, file: path)
    }

    struct Reader {
        let file: String
        let map: WorkflowSourceMap
        let isText: Bool
        var problems: [WorkflowProblem] = []

        mutating func fault(_ position: SourcePosition?, _ message: String) {
            problems.append(WorkflowProblem(file: file, position: position ?? SourcePosition(line: 1, column: 1), message))
        }

        mutating func workflow(_ root: JSONValue) -> Workflow? {
            guard case .object(let top) = root else {
                fault(nil, "a workflow is a mapping with name, description, inputs and steps; start with 'name: my-workflow'")
                return nil
            }
            for key in top.keys where !WorkflowParser.topKeys.contains(key) {
                fault(map.key(key), "unknown key '\(key)'; a workflow has \(WorkflowParser.topKeys.sorted().joined(separator: ", "))")
            }
            var name = ""
            if let value = top["name"]?.stringValue, !value.isEmpty {
                name = value
                if !WorkflowName.isValid(value) {
                    fault(map.key("name"), "the name '\(value)' \(WorkflowName.rule)")
                }
            } else {
                fault(map.key("name"), "the workflow needs a name (a string); add 'name: morning-briefing'")
            }
            var description = ""
            if let value = top["description"] {
                if let text = value.stringValue { description = text } else {
                    fault(map.key("description"), "description must be text; write it on one line or as a '|' block")
                }
            }
            var inputs: JSONValue = ["type": "object"]
            if let value = top["inputs"] {
                if case .object = value {
                    inputs = isText ? SchemaTyping.typedSchema(value) : value
                } else if value != .string("") {
                    fault(map.key("inputs"), "inputs must be a JSON Schema object (type: object, properties: …)")
                }
            }
            var steps: [WorkflowStep] = []
            switch top["steps"] {
            case .array(let items)?:
                if items.isEmpty { fault(map.key("steps"), "the workflow has no steps; add at least one under 'steps:'") }
                let ids = items.compactMap { $0["id"]?.stringValue }
                let blocks = map.stepLines(ids)
                for (index, item) in items.enumerated() {
                    if let step = self.step(item, index: index, blocks: blocks) { steps.append(step) }
                }
            case nil:
                fault(nil, "the workflow has no 'steps:'; add a list of steps, each with an id and a skill")
            default:
                fault(map.key("steps"), "steps must be a list ('- id: …' items)")
            }
            var workflow = Workflow(name: name, description: description, inputs: inputs, steps: steps, file: file, scalarsAreText: isText)
            if let value = top["deliver"] { workflow.delivery = delivery(value) }
            return workflow
        }

        /// `deliver: {to: PATH, text: TEXT}` (``WorkflowDelivery``).
        mutating func delivery(_ value: JSONValue) -> WorkflowDelivery? {
            let position = map.key("deliver") ?? SourcePosition(line: 1, column: 1)
            guard case .object(let object) = value else {
                fault(position, "deliver is a mapping with 'to' (a path under the deliveries folder) and 'text'; e.g. to: briefing.md")
                return nil
            }
            let after = position.line
            func at(_ key: String) -> SourcePosition { map.key(key, from: after, until: Int.max) ?? position }
            for key in object.keys where key != "to" && key != "text" {
                fault(at(key), "deliver has 'to' and 'text', not '\(key)'; remove it")
            }
            guard let to = object["to"]?.stringValue else {
                fault(position, "deliver needs 'to': the file's path under the deliveries folder, e.g. 'briefings/today.md'")
                return nil
            }
            // A path with references is checked again once they are filled in; its literal parts now.
            let literal = (try? WorkflowTemplate.segments(of: to))?.map { if case .text(let text) = $0 { text } else { "x" } }.joined() ?? to
            if let problem = WorkflowDelivery.problem(ofPath: literal) { fault(at("to"), problem) }
            guard let text = object["text"] else {
                fault(position, "deliver needs 'text': what the file holds, e.g. text: ${{ steps.summary.output.summary }}")
                return nil
            }
            return WorkflowDelivery(to: to, text: text, position: position)
        }

        mutating func step(_ item: JSONValue, index: Int, blocks: [String: (start: Int, end: Int)]) -> WorkflowStep? {
            guard case .object(let object) = item else {
                fault(map.key("steps"), "step \(index + 1) is not a mapping; write '- id: NAME' and 'skill: ID' under it")
                return nil
            }
            guard let id = object["id"]?.stringValue, !id.isEmpty else {
                fault(map.key("steps"), "step \(index + 1) has no id; add 'id: NAME' (letters, digits, '_', '-')")
                return nil
            }
            let block = blocks[id]
            let position = block.flatMap { map.key("id", from: $0.start, until: $0.start + 1) } ?? SourcePosition(line: 0, column: 0)
            func at(_ key: String) -> SourcePosition { block.flatMap { map.key(key, from: $0.start, until: $0.end) } ?? position }
            if !WorkflowName.isStepID(id) {
                fault(position, "step id '\(id)' may hold only letters, digits, '_' and '-' (it is used in references); rename it")
            }
            for key in object.keys where !WorkflowParser.stepKeys.contains(key) {
                let hint = key == "with" ? "arguments" : key == "depends_on" || key == "depends-on" ? "needs" : nil
                fault(at(key), "step \(id): unknown key '\(key)'; "
                    + (hint.map { "write '\($0)'" } ?? "a step has \(WorkflowParser.stepKeys.sorted().joined(separator: ", "))"))
            }
            var skill = ""
            if let value = object["skill"]?.stringValue, !value.isEmpty { skill = value } else {
                fault(position, "step \(id) has no skill; add 'skill: clock.now' (see 'skillhost list')")
            }
            var arguments: JSONValue = .object(JSONObject())
            if let value = object["arguments"] {
                if case .object = value { arguments = value } else if value != .string("") {
                    fault(at("arguments"), "step \(id): arguments must be a mapping of parameter names to values")
                }
            }
            var needs: [String] = []
            switch object["needs"] {
            case nil: break
            case .string(let one)?: if !one.isEmpty { needs = [one] }
            case .array(let items)?:
                for item in items {
                    if let text = item.stringValue { needs.append(text) } else {
                        fault(at("needs"), "step \(id): needs lists step ids (text)")
                    }
                }
            default: fault(at("needs"), "step \(id): needs is a step id or a list of step ids")
            }
            var condition: String?
            if let value = object["if"] {
                if let text = value.stringValue {
                    condition = text
                    do throws(WorkflowSyntaxError) { _ = try WorkflowCondition(text) } catch {
                        fault(at("if"), "step \(id): if: \(error.reason)")
                    }
                } else {
                    fault(at("if"), "step \(id): if must be text, e.g. \"steps.cal.output.count > 0\"")
                }
            }
            var retry = RetryPolicy()
            if let value = object["retry"] {
                if case .object(let policy) = value {
                    for key in policy.keys where key != "count" && key != "backoff" {
                        fault(at(key), "step \(id): retry has count and backoff, not '\(key)'")
                    }
                    if let count = policy["count"] {
                        if let number = integer(count), (0...100).contains(number) { retry.count = Int(number) } else {
                            fault(at("count"), "step \(id): retry count must be a whole number from 0 to 100")
                        }
                    }
                    if let backoff = policy["backoff"] {
                        if let seconds = seconds(backoff), seconds >= 0, seconds <= 3600 { retry.backoff = seconds } else {
                            fault(at("backoff"), "step \(id): retry backoff is seconds from 0 to 3600 (e.g. 2 or 500ms)")
                        }
                    }
                } else {
                    fault(at("retry"), "step \(id): retry is a mapping with count and backoff")
                }
            }
            var timeout: Double?
            if let value = object["timeout"] {
                if let number = seconds(value), number > 0, number <= 86_400 { timeout = number } else {
                    fault(at("timeout"), "step \(id): timeout is seconds over 0 and at most 86400 (e.g. 30 or 1500ms)")
                }
            }
            var continueOnError = false
            if let value = object["continue-on-error"] {
                if let flag = value.boolValue ?? (value.stringValue == "true" ? true : value.stringValue == "false" ? false : nil) {
                    continueOnError = flag
                } else {
                    fault(at("continue-on-error"), "step \(id): continue-on-error is true or false")
                }
            }
            return WorkflowStep(
                id: id, skill: skill, arguments: arguments, needs: needs, condition: condition, retry: retry, timeout: timeout,
                continueOnError: continueOnError, position: position)
        }

        func integer(_ value: JSONValue) -> Int64? {
            value.intValue ?? value.stringValue.flatMap { Int64($0) }
        }

        /// Seconds from a number, or text: `12`, `1.5`, `500ms`, `2s`, `1m`.
        func seconds(_ value: JSONValue) -> Double? {
            if let number = value.doubleValue { return number }
            guard let text = value.stringValue else { return nil }
            for (suffix, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(suffix) {
                return Double(text.dropLast(suffix.count)).map { $0 * scale }
            }
            return Double(text)
        }
    }
}

/// Every fault of a workflow file.
public struct WorkflowFaults: Error, Sendable, CustomStringConvertible {
    public var problems: [WorkflowProblem]
    public init(_ problems: [WorkflowProblem]) { self.problems = problems }
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// The rules for workflow names and step ids.
public enum WorkflowName {
    /// What a name must be, said after it.
    public static let rule = "is not a workflow name: use lowercase letters, digits, '_' and '-', starting with a letter (it becomes the skill workflow.NAME)"

    /// Lowercase letters, digits, `_`, `-`, starting with a letter, at most 64.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    /// Letters, digits, `_`, `-`, at most 64.
    public static func isStepID(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.count <= 64 && id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
    }
}
