import SkillCalls
import SkillHostCore
import SkillJSON

/// The `find_skills(query)` tool offered beside a selection of skills when not all of them fit the
/// ``ToolBudget``: the loop answers it itself (it reaches no skill) with the best further skills for the
/// query, which the following requests of the turn then offer.
enum FindSkillsTool {
    /// The tool name.
    static let name = "find_skills"
    /// Skills one answer names at most.
    static let maxResults = 8

    /// The tool as the model sees it.
    static let spec = ToolSpec(
        name: name,
        tool: SkillTool(
            id: name, title: "Find skills",
            description: "Finds more tools than those offered: describe the task in a few words; the tools it names can be called next.",
            parameters: [
                "type": "object",
                "properties": ["query": ["type": "string", "description": "What the tool should do", "minLength": 1]],
                "required": ["query"], "additionalProperties": false,
            ]))

    /// The answer to one call: the result for the model, and the tool names it found (to offer next).
    /// `offered` are the names the model already has.
    static func answer(_ call: ToolCall, selector: ToolSelector, offered: Set<String>) -> (result: JSONValue, found: [String]) {
        let arguments = try? JSONValue(parsing: call.argumentsText)
        guard let query = arguments?["query"]?.stringValue?.trimmingWhitespace(), !query.isEmpty else {
            return (["error": "find_skills needs {\"query\": \"what the tool should do\"}"], [])
        }
        let found = selector.ranked(for: query).filter { !offered.contains($0.name) }.prefix(maxResults)
        let list: [JSONValue] = found.map { spec in
            let description = spec.tool.description.isEmpty ? spec.tool.title : spec.tool.description
            return ["name": .string(spec.name), "description": .string(ToolSelector.firstSentence(of: description))]
        }
        return (["skills": .array(list), "note": "These tools can now be called."], found.map(\.name))
    }
}

extension FindSkillsTool {
    /// Runs one reply's calls: `find_skills` calls (when it was offered) are answered here, the rest by
    /// `runner`; the tool messages come back in call order, with the tool names found.
    static func runAll(
        _ calls: [ToolCall], runner: ToolCallRunner, selector: ToolSelector, offered: [ToolSpec],
        emit: @escaping @Sendable (AgentEvent) -> Void
    ) async -> (messages: [ChatMessage], found: [String]) {
        guard offered.contains(where: { $0.name == name }), calls.contains(where: { $0.name == name }) else {
            return (await runner.runAll(calls, emit: emit), [])
        }
        var names = Set(offered.map(\.name))
        var found: [String] = []
        var answers: [String: ChatMessage] = [:]
        for call in calls where call.name == name {
            let info = SkillCallInfo(callID: call.id, toolName: call.name, skillID: nil, argumentsText: call.argumentsText)
            emit(.skillStarted(info))
            let (result, more) = answer(call, selector: selector, offered: names)
            names.formUnion(more)
            found += more
            emit(.skillSucceeded(info, result: result, seconds: 0))
            answers[call.id] = .tool(callID: call.id, content: runner.formatter.text(for: result))
        }
        let others = calls.filter { $0.name != name }
        var results = await runner.runAll(others, emit: emit).makeIterator()
        let messages = calls.compactMap { call in call.name == name ? answers[call.id] : results.next() }
        return (messages, found)
    }
}
