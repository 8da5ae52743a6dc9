import Testing

@testable import SkillAgent

/// The message a slash activation sends is read back by the offline planner, which answers from it instead of
/// activating the skill a second time (WebRoutesTests' page chat raced that second activation).
@Suite struct SlashActivationTextTests {
    static let activation = #"{"name":"docs:pdf-tools/forms","instructions":"Use blue ink.\n","files":[]}"#

    @Test("the skill and its activation are read back from the message; other text is not one")
    func readBack() {
        let text = "<activated_skill name=\"docs:pdf-tools/forms\">\n\(Self.activation)\n</activated_skill>\n\nthe tax form"
        let read = SlashActivation.activated(in: text)
        #expect(read?.name == "docs:pdf-tools/forms")
        #expect(read?.activation == Self.activation)
        #expect(SlashActivation.activated(in: "the tax form") == nil)
        #expect(SlashActivation.activated(in: "<activated_skill name=\"x\">\nno end") == nil, "not closed")
        #expect(SlashActivation.activated(in: "say <activated_skill name=\"x\">\n{}\n</activated_skill>") == nil, "not at the start")
    }

    @Test("the offline planner answers a slash-activated skill from the message, with no activation call")
    func plannerAnswersFromTheMessage() {
        let text = "<activated_skill name=\"forms\">\n\(Self.activation)\n</activated_skill>\n\nfill the tax form"
        let spec = ToolSpec(name: "activate_skill", tool: InstructionTools.tools(for: [("forms", "Fill in tax forms and other forms")])[0])
        let reply = OfflineInstructionStep.reply(to: ModelRequest(messages: [.user(text)], tools: [spec]), userText: text, later: [])
        #expect(reply?.toolCalls.isEmpty == true, "no second activation")
        #expect(reply?.content.contains("The instruction skill forms covers this") == true && reply?.content.contains("> Use blue ink.") == true, "\(reply?.content ?? "")")
    }
}
