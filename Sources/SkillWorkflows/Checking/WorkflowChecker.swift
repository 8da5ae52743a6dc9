import JSONSchema
import SkillCalls
import SkillJSON

/// Checks a parsed workflow against the skills the host offers, before anything runs: every skill exists
/// and is enabled, every `needs` and reference resolves, a reference's type (from the producing skill's
/// output schema, or the input schema) fits the consuming parameter's schema, constant arguments are valid,
/// required parameters are given, and the graph has no cycle (refused with the cycle's path). Every fault
/// at once, each with its line and column and the fix.
public struct WorkflowChecker {
    /// How a skill id the workflow names resolves.
    public enum Lookup: Sendable {
        case usable(SkillTool)
        /// Why it cannot be called (not found, disabled…), with the fix.
        case unusable(String)
    }

    let lookup: (String) -> Lookup
    /// A check of a step's arguments beyond their schema, by the source that knows more (the script tool:
    /// the named script exists in its skill's folder): the key it is about and the message, nil when fine.
    public var stepCheck: ((WorkflowStep, SkillTool) -> (key: String, message: String)?)?

    /// A checker that resolves skill ids with `lookup`.
    public init(lookup: @escaping (String) -> Lookup) { self.lookup = lookup }

    /// A checker over a fixed set of usable tools.
    public init(tools: [SkillTool]) {
        let byID = Dictionary(tools.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        lookup = { id in
            byID[id].map(Lookup.usable) ?? .unusable("no enabled skill '\(id)'; see 'skillhost list' for the skill ids")
        }
    }

    /// Every fault of `workflow`, whose file's text is `source`; empty when it may run.
    public func problems(of workflow: Workflow, source: String) -> [WorkflowProblem] {
        report(of: workflow, source: source).problems
    }

    /// Every fault of `workflow`, and notes on what could not be checked (a reference into the output of a
    /// skill that declares no output schema, such as an instruction skill's script): the notes do not keep
    /// it from running.
    public func report(of workflow: Workflow, source: String) -> (problems: [WorkflowProblem], notes: [WorkflowProblem]) {
        var check = Check(workflow: workflow, map: WorkflowSourceMap(source))
        check.run(lookup, stepCheck: stepCheck)
        let order = { (a: WorkflowProblem, b: WorkflowProblem) in (a.position.line, a.position.column) < (b.position.line, b.position.column) }
        return (check.problems.sorted(by: order), check.notes.sorted(by: order))
    }

    /// The tools of the workflow's steps by step id, for the ones that resolve.
    public func tools(of workflow: Workflow) -> [String: SkillTool] {
        var result: [String: SkillTool] = [:]
        for step in workflow.steps { if case .usable(let tool) = lookup(step.skill) { result[step.id] = tool } }
        return result
    }

    struct Check {
        let workflow: Workflow
        let map: WorkflowSourceMap
        var problems: [WorkflowProblem] = []
        /// What could not be checked, said so (not faults: the workflow may run).
        var notes: [WorkflowProblem] {
            unchecked.sorted { $0.key < $1.key }.map { producer, use in
                let script = use.skill == ScriptToolBackend.toolID
                return WorkflowProblem(file: workflow.file, position: use.first,
                    "note: \(use.count) reference\(use.count == 1 ? "" : "s") into step \(producer)'s output \(use.count == 1 ? "is" : "are") not type-checked: \(use.skill) declares no output schema"
                        + (script ? " (a script's result is {exit_status, stdout, stderr, …}; stdout is whatever text the script prints)" : "")
                        + "; run the workflow to check \(use.count == 1 ? "it" : "them")")
            }
        }
        /// References into the output of a step whose skill declares no output schema: the first one, the skill, how many.
        var unchecked: [String: (first: SourcePosition, skill: String, count: Int)] = [:]
        var blocks: [String: (start: Int, end: Int)] = [:]

        init(workflow: Workflow, map: WorkflowSourceMap) {
            self.workflow = workflow
            self.map = map
            blocks = map.stepLines(workflow.steps.map(\.id))
        }

        mutating func fault(_ position: SourcePosition, _ message: String) {
            problems.append(WorkflowProblem(file: workflow.file, position: position, message))
        }

        func at(_ step: WorkflowStep, key: String? = nil, text: String? = nil, after line: Int? = nil) -> SourcePosition {
            guard let block = blocks[step.id] else { return step.position }
            if let text, let found = map.text(text, from: max(block.start, line ?? 0), until: block.end)
                ?? map.text(text, from: block.start, until: block.end) { return found }
            if let key, let found = map.key(key, from: block.start, until: block.end) { return found }
            return step.position
        }

        mutating func run(_ lookup: (String) -> Lookup, stepCheck: ((WorkflowStep, SkillTool) -> (key: String, message: String)?)? = nil) {
            do { _ = try Schema(compiling: workflow.inputs) } catch {
                fault(map.key("inputs") ?? SourcePosition(line: 1, column: 1), "the inputs schema is not valid at '\(error.pointer)': \(error.message)")
            }
            var seen = Set<String>()
            var tools: [String: SkillTool] = [:]
            for step in workflow.steps {
                if !seen.insert(step.id).inserted {
                    fault(step.position, "step id '\(step.id)' is used twice; give each step its own id")
                }
                switch lookup(step.skill) {
                case .usable(let tool):
                    tools[step.id] = tool
                    if let found = stepCheck?(step, tool) { fault(at(step, key: found.key), "step \(step.id): \(found.message)") }
                case .unusable(let why): fault(at(step, key: "skill"), "step \(step.id): \(why)")
                }
            }
            let ids = Set(workflow.steps.map(\.id))
            for step in workflow.steps {
                for need in step.needs where !ids.contains(need) || need == step.id {
                    fault(at(step, key: "needs"), need == step.id
                        ? "step \(step.id) needs itself; remove it from needs"
                        : "step \(step.id) needs '\(need)', which is no step here; use one of: \(workflow.steps.map(\.id).joined(separator: ", "))")
                }
                checkArguments(step, tool: tools[step.id], tools: tools, ids: ids)
                if let text = step.condition, let condition = try? WorkflowCondition(text) {
                    for reference in condition.references {
                        checkResolves(reference, in: step, tools: tools, ids: ids, position: at(step, key: "if"))
                    }
                }
            }
            if let delivery = workflow.delivery { checkDelivery(delivery, tools: tools, ids: ids) }
            checkCycles(ids: ids)
        }

        /// `deliver`'s references resolve (to the input or any step: delivery comes after every step).
        mutating func checkDelivery(_ delivery: WorkflowDelivery, tools: [String: SkillTool], ids: Set<String>) {
            let owner = WorkflowStep(id: "", skill: "")
            for (key, value) in [("to", JSONValue.string(delivery.to)), ("text", delivery.text)] {
                let position = map.key(key, from: delivery.position.line, until: Int.max) ?? delivery.position
                var malformed = false
                WorkflowTemplate.visitStrings(value) { text in
                    if (try? WorkflowTemplate.segments(of: text)) == nil { malformed = true }
                }
                if malformed {
                    var reason = ""
                    WorkflowTemplate.visitStrings(value) { text in
                        do throws(WorkflowSyntaxError) { _ = try WorkflowTemplate.segments(of: text) } catch { reason = error.reason }
                    }
                    fault(position, "deliver.\(key): \(reason)")
                    continue
                }
                for reference in WorkflowTemplate.references(in: value) {
                    checkResolves(reference, in: owner, tools: tools, ids: ids, position: position, owner: "deliver.\(key)")
                }
            }
        }

        /// Reports the problems of `reference` used by `step`; returns the producing schema when it resolves.
        @discardableResult
        mutating func checkResolves(
            _ reference: WorkflowReference, in step: WorkflowStep, tools: [String: SkillTool], ids: Set<String>, position: SourcePosition,
            owner: String? = nil
        ) -> (resolved: Bool, schema: JSONValue?) {
            let who = owner ?? "step \(step.id)"
            guard let producer = reference.stepID else {
                let first = JSONPointer.tokens(reference.pointer)?.first
                if let first, !SchemaTyping.allowsMember(first, in: workflow.inputs) {
                    let names = workflow.inputs["properties"]?.objectValue?.keys ?? []
                    fault(position, "\(who): \(reference.text): the inputs have no '\(first)'; "
                        + (names.isEmpty ? "declare it under inputs.properties" : "use one of: \(names.joined(separator: ", ")), or declare it"))
                    return (false, nil)
                }
                return (true, SchemaTyping.schema(workflow.inputs, at: reference.pointer))
            }
            guard ids.contains(producer) else {
                fault(position, "\(who): \(reference.text) names no step '\(producer)'; use one of: \(workflow.steps.map(\.id).joined(separator: ", "))")
                return (false, nil)
            }
            guard producer != step.id else {
                fault(position, "\(who): \(reference.text) refers to the step's own output; refer to an earlier step")
                return (false, nil)
            }
            guard let output = tools[producer]?.skill.outputSchema else {
                if let tool = tools[producer], !reference.pointer.isEmpty || tool.id == ScriptToolBackend.toolID {
                    unchecked[producer, default: (position, tool.id, 0)].count += 1
                }
                return (true, nil)
            }
            if !reference.pointer.isEmpty, SchemaTyping.schema(output, at: reference.pointer) == nil,
                let tokens = JSONPointer.tokens(reference.pointer)
            {
                // Walk down to the first token the schema does not offer.
                var schema: JSONValue? = output
                for token in tokens {
                    if !SchemaTyping.allowsMember(token, in: schema), Int(token) == nil {
                        let names = schema?["properties"]?.objectValue?.keys ?? []
                        fault(position, "\(who): \(reference.text): \(tools[producer]!.id)'s output has no '\(token)'"
                            + (names.isEmpty ? "; check its output schema ('skillhost inspect \(tools[producer]!.id)')" : "; use one of: \(names.joined(separator: ", "))"))
                        return (false, nil)
                    }
                    schema = SchemaTyping.schema(schema, at: "/" + JSONPointer.escape(token))
                    if schema == nil { break }
                }
            }
            return (true, SchemaTyping.schema(output, at: reference.pointer))
        }

        mutating func checkArguments(_ step: WorkflowStep, tool: SkillTool?, tools: [String: SkillTool], ids: Set<String>) {
            guard case .object(let arguments) = step.arguments else { return }
            let parameters = tool?.parameters
            if let tool, let required = parameters?["required"]?.arrayValue {
                for case .string(let name) in required where !arguments.hasMember(name) {
                    fault(at(step, key: "arguments"), "step \(step.id): \(tool.id) needs the argument '\(name)'; add it under arguments")
                }
            }
            for (name, value) in arguments {
                let position = at(step, key: name)
                if let tool, !SchemaTyping.allowsMember(name, in: parameters) {
                    let names = parameters?["properties"]?.objectValue?.keys ?? []
                    fault(position, "step \(step.id): \(tool.id) has no parameter '\(name)'; use one of: \(names.joined(separator: ", "))")
                    continue
                }
                let schema = SchemaTyping.schema(parameters, at: "/" + JSONPointer.escape(name))
                checkValue(value, pointer: "/" + JSONPointer.escape(name), schema: schema, step: step, tool: tool, tools: tools, ids: ids, line: position.line)
            }
        }

        mutating func checkValue(
            _ value: JSONValue, pointer: String, schema: JSONValue?, step: WorkflowStep, tool: SkillTool?, tools: [String: SkillTool],
            ids: Set<String>, line: Int
        ) {
            switch value {
            case .string(let text):
                let pieces: [WorkflowTemplate.Segment]
                do throws(WorkflowSyntaxError) { pieces = try WorkflowTemplate.segments(of: text) } catch {
                    fault(at(step, text: "${{"), "step \(step.id): \(error.reason)")
                    return
                }
                let references = pieces.compactMap { if case .reference(let r) = $0 { r } else { nil } }
                guard !references.isEmpty else { return checkConstant(value, pointer: pointer, schema: schema, step: step, tool: tool) }
                for reference in references {
                    let position = at(step, text: reference.expression, after: line)
                    let (resolved, produced) = checkResolves(reference, in: step, tools: tools, ids: ids, position: position)
                    guard resolved, let tool else { continue }
                    let accepted = SchemaTyping.types(of: schema)
                    if pieces.count == 1 {
                        if let accepted, let given = SchemaTyping.types(of: produced), given.isDisjoint(with: accepted) {
                            fault(position, "step \(step.id): \(reference.text) is \(given.sorted().joined(separator: " or ")) but \(tool.id)'s '\(pointer.dropFirst())' takes \(accepted.sorted().joined(separator: " or ")); refer to a value of that type")
                        }
                    } else if let accepted, !accepted.contains("string") {
                        fault(position, "step \(step.id): text with \(reference.text) in it is a string but \(tool.id)'s '\(pointer.dropFirst())' takes \(accepted.sorted().joined(separator: " or ")); use the reference alone")
                    }
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    checkValue(item, pointer: pointer + "/\(index)", schema: SchemaTyping.schema(schema, at: "/\(index)"), step: step, tool: tool, tools: tools, ids: ids, line: line)
                }
            case .object(let members):
                for (key, member) in members {
                    checkValue(member, pointer: pointer + "/" + JSONPointer.escape(key), schema: SchemaTyping.schema(schema, at: "/" + JSONPointer.escape(key)), step: step, tool: tool, tools: tools, ids: ids, line: line)
                }
            default:
                checkConstant(value, pointer: pointer, schema: schema, step: step, tool: tool)
            }
        }

        mutating func checkConstant(_ value: JSONValue, pointer: String, schema: JSONValue?, step: WorkflowStep, tool: SkillTool?) {
            guard let tool, let schema, let compiled = try? Schema(compiling: schema) else { return }
            let typed = workflow.scalarsAreText ? SchemaTyping.typed(value, for: schema) : value
            if let first = compiled.validate(typed, maxErrors: 1).first {
                let name = pointer.dropFirst()
                fault(at(step, key: String(name.split(separator: "/").last ?? name)),
                    "step \(step.id): the argument '\(name)' of \(tool.id) is not valid: \(first.message); fix the value")
            }
        }

        mutating func checkCycles(ids: Set<String>) {
            var state: [String: Int] = [:]  // 1: on the path, 2: done
            var path: [String] = []
            var reported = Set<String>()
            let byID = Dictionary(workflow.steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            func visit(_ id: String) {
                state[id] = 1
                path.append(id)
                for next in byID[id]?.dependencies ?? [] where ids.contains(next) && next != id {
                    if state[next] == 1 {
                        let cycle = Array(path[path.lastIndex(of: next)!...]) + [next]
                        if reported.insert(Set(cycle).sorted().joined(separator: ",")).inserted, let step = byID[next] {
                            problems.append(WorkflowProblem(file: workflow.file, position: step.position,
                                "the steps form a cycle: \(cycle.joined(separator: " → ")); remove one of these dependencies"))
                        }
                    } else if state[next] == nil {
                        visit(next)
                    }
                }
                path.removeLast()
                state[id] = 2
            }
            for step in workflow.steps where state[step.id] == nil { visit(step.id) }
        }
    }
}
