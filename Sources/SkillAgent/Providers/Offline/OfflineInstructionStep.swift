import Foundation
import SkillJSON

/// What the offline planner does with instruction skills. It cannot follow instructions, so when a request
/// maps to no tool call but matches an enabled instruction skill's description, it activates that skill
/// (so the user sees the activation) and answers by naming the skill and quoting the first lines of its body;
/// a skill the user activated by its slash name is answered from the message, without a second activation.
struct OfflineInstructionStep {
    /// The id of the planner's activation call.
    static let callID = "offline_skill_1"
    /// How many body lines the answer quotes.
    static let quotedLines = 6

    /// The reply for this turn, or nil when instruction skills do not apply.
    static func reply(to request: ModelRequest, userText: String, later: [ChatMessage]) -> ModelReply? {
        guard let spec = request.tools.first(where: { $0.tool.id == "activate_skill" }) else { return nil }
        if let result = later.first(where: { $0.role == .tool && $0.toolCallID == callID }) {
            let name = later.flatMap(\.toolCalls).first { $0.id == callID }.flatMap { try? $0.parsedArguments()["name"]?.stringValue } ?? "the skill"
            return ModelReply(content: answer(skill: name, result: result.content), finishReason: "stop")
        }
        // A skill the user activated with its slash name is in the message already: answered from there, not
        // activated a second time.
        if let (name, activation) = SlashActivation.activated(in: userText) {
            return ModelReply(content: answer(skill: name, result: activation), finishReason: "stop")
        }
        guard request.toolChoice == .auto, let name = bestMatch(userText, choices: choices(in: spec)) else { return nil }
        let call = ToolCall(id: callID, name: spec.name, arguments: ["name": .string(name)])
        return ModelReply(content: "", toolCalls: [call], finishReason: "tool_calls")
    }

    /// The skills offered by the activation tool: name and description.
    static func choices(in spec: ToolSpec) -> [(name: String, description: String)] {
        let options = spec.tool.parameters["properties"]?["name"]?["oneOf"]?.arrayValue ?? []
        return options.compactMap { option in
            guard let name = option["const"]?.stringValue else { return nil }
            return (name, option["description"]?.stringValue ?? "")
        }
    }

    /// The skill whose name and description share the most meaningful words with the request (at least two).
    static func bestMatch(_ text: String, choices: [(name: String, description: String)]) -> String? {
        let wanted = stems(text)
        var best: (name: String, score: Int)?
        for choice in choices {
            let offered = stems(choice.description + " " + choice.name.replacingOccurrences(of: "-", with: " "))
            let score = wanted.intersection(offered).count
            if score >= 2, score > (best?.score ?? 0) { best = (choice.name, score) }
        }
        return best?.name
    }

    static let ignored: Set<String> = [
        "about", "when", "what", "with", "that", "this", "from", "your", "have", "into", "user", "asks", "skill",
        "skills", "using", "uses", "there", "their", "them", "then", "does", "should", "would", "could", "which",
        "where", "other", "another", "like", "want", "need", "help", "tell", "please", "answer", "answers",
    ]

    /// Lowercased words of four letters or more, cut to five letters (a crude stem: schedule ~ scheduling).
    static func stems(_ text: String) -> Set<String> {
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        return Set(words.filter { $0.count >= 4 && !ignored.contains($0) }.map { String($0.prefix(5)) })
    }

    /// Names the skill and quotes the first lines of its body.
    static func answer(skill: String, result: String) -> String {
        guard let value = try? JSONValue(parsing: result), let body = value["instructions"]?.stringValue else {
            return "The instruction skill \(skill) matches this request, but it could not be loaded: \(result)"
        }
        let lines = body.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let quoted = lines.prefix(quotedLines).map { "> " + $0 }.joined(separator: "\n")
        return """
            The instruction skill \(skill) covers this. I am the offline planner and cannot follow written \
            instructions, so here is how it begins (configure a model server to have them followed):
            \(quoted)
            """
    }
}
