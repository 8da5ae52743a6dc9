import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// Instruction skills in the agent loop: listed in the system prompt, read through `activate_skill` and
/// `read_skill_file`, shown as calls with the skill's id, kept by the trimmer as whole units, and answered
/// by the offline planner.
@Suite(.serialized) struct InstructionSkillAgentTests {
    static let packageRoot = TestPackage.root

    /// A host whose skills folder holds the bundled instruction skills (and one with a script).
    static func library() throws -> (HostInstructionLibrary, String) {
        let root = NSTemporaryDirectory() + "instructions-agent-\(UUID().uuidString.prefix(8))"
        let skills = root + "/skills"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: skills, withIntermediateDirectories: true)
        for name in ["time-zones", "writing-summaries"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/Plugins/Instructions/" + name, toPath: skills + "/" + name)
        }
        try FileManager.default.createDirectory(atPath: skills + "/release-notes/scripts", withIntermediateDirectories: true)
        try "---\nname: release-notes\ndescription: Drafts release notes from a changelog.\n---\nRun scripts/draft.sh, then edit.\n"
            .write(toFile: skills + "/release-notes/SKILL.md", atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho draft\n".write(toFile: skills + "/release-notes/scripts/draft.sh", atomically: true, encoding: .utf8)
        try "secret".write(toFile: root + "/secret.txt", atomically: true, encoding: .utf8)
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data", skills: skills)
        return (HostInstructionLibrary(host: SkillHost(paths: paths, helperExecutable: "/bin/false")), root)
    }

    /// An instruction skill the administrator's policy blocks is neither offered nor read, whatever name is
    /// given (`activate_skill` and `read_skill_file` name skills themselves).
    @Test func aSkillThePolicyBlocksIsNeverRead() throws {
        let (open, root) = try Self.library()
        try #"{"block": [{"instruction_skill": "time-zones", "reason": "not here"}]}"#.write(toFile: root + "/policy.json", atomically: true, encoding: .utf8)
        let paths = HostPaths(
            plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data",
            skills: root + "/skills", policyFiles: [root + "/policy.json"])
        let library = HostInstructionLibrary(host: SkillHost(paths: paths, helperExecutable: "/bin/false"))
        #expect(try open.skill(named: "time-zones").name == "time-zones", "readable without the policy")
        #expect(try !library.enabledSkills().map(\.name).contains("time-zones"))
        #expect(try library.enabledSkills().map(\.name).contains("writing-summaries"))
        func expectBlocked(_ error: HostError?) {
            #expect(error?.kind == .denied, "a blocked instruction skill was read")
            #expect(error?.message.contains("administrator's policy") == true && error?.message.contains("not here") == true, "\(error?.message ?? "")")
        }
        var failure: HostError?
        do { _ = try library.skill(named: "time-zones") } catch { failure = error }
        expectBlocked(failure)
        failure = nil
        do { _ = try library.read(skill: "time-zones", path: "SKILL.md", offset: 0, limit: 100) } catch { failure = error }
        expectBlocked(failure)
    }

    static func backend() throws -> (InstructionSkillBackend, String) {
        let (library, root) = try library()
        return (InstructionSkillBackend(base: TestSkills.backend(TestSkills.clockNow), library: library), root)
    }

    static func timeZonesBody() throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/Plugins/Instructions/time-zones/SKILL.md", encoding: .utf8)
        return try SkillDocument(bytes: Array(text.utf8)).body
    }

    @Test func theTurnsMessagesCarryTheBodyAfterActivateSkill() async throws {
        let server = try ReplayServer([.json("call_activate_skill.json"), .json("answer_after_activation.json")])
        defer { server.stop() }
        let (backend, _) = try Self.backend()
        let agent = Agent(provider: OpenAIProviderTests.provider(server, stream: false), backend: backend)
        let all = await events(of: agent, "How do I schedule a call between New York and Tokyo?")
        #expect(all.answer?.contains("clock.convert") == true)
        #expect(server.requests.count == 2)

        // First request: names and descriptions in the system prompt, both built-in tools offered.
        let first = try #require(server.requests.first?.body)
        let system = try #require(first["messages"]?.arrayValue?.first?["content"]?.stringValue)
        #expect(system.contains("<name>time-zones</name>"))
        #expect(system.contains("How to answer scheduling questions across time zones"))
        #expect(!system.contains("Never compute time zone offsets"))  // only name + description up front
        let toolNames = first["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
        #expect(Set(toolNames).isSuperset(of: ["activate_skill", "read_skill_file", "clock_now"]))

        // Second request: the tool message answering the activation carries the body.
        let messages = try #require(server.requests[1].body?["messages"]?.arrayValue)
        let toolMessage = try #require(messages.first { $0["role"] == "tool" && $0["tool_call_id"] == "call_Sk1" })
        let result = try JSONValue(parsing: toolMessage["content"]?.stringValue ?? "")
        #expect(result["instructions"]?.stringValue == (try Self.timeZonesBody()))
        #expect(result["name"] == "time-zones")

        // Shown like any call, with the skill's id.
        let started = all.compactMap { if case .skillStarted(let info) = $0 { info } else { nil } }
        #expect(started.map(\.skillID) == ["time-zones"])
        #expect(all.successes == ["call_Sk1"])
    }

    /// A long body (far over the agent's per-result character budget) reaches the model whole: the result
    /// trimmer never cuts instructions; only the history trimmer may drop them, as a unit.
    @Test func aLongBodyIsNotCutByTheResultTrimmer() async throws {
        let (library, root) = try Self.library()
        var body = "# Long guide\n\n"
        for step in 1...600 { body += "Step \(step): check the zone with clock.convert before answering.\n" }
        try FileManager.default.createDirectory(atPath: root + "/skills/long-guide", withIntermediateDirectories: true)
        try "---\nname: long-guide\ndescription: A long guide.\n---\n\(body)"
            .write(toFile: root + "/skills/long-guide/SKILL.md", atomically: true, encoding: .utf8)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [ToolCall(id: "L1", name: "activate_skill", arguments: ["name": "long-guide"])], finishReason: "tool_calls"),
            ModelReply(content: "Done.", finishReason: "stop"),
        ])
        let backend = InstructionSkillBackend(base: TestSkills.backend(TestSkills.clockNow), library: library)
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(historyTokenBudget: 100_000))
        let all = await events(of: agent, "follow the long guide")
        #expect(all.answer == "Done.")
        let second = try #require(provider.requests.last)
        let tool = try #require(second.messages.first { $0.toolCallID == "L1" })
        #expect(body.utf8.count > AgentConfiguration().maxResultCharacters * 5)
        #expect(try JSONValue(parsing: tool.content)["instructions"]?.stringValue == body.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func readSkillFileIsCappedAndConfined() async throws {
        let (backend, root) = try Self.backend()
        func read(_ arguments: JSONValue) async -> Result<JSONValue, HostError> {
            do {
                return .success(try await backend.run(
                    try backend.prepare(skillID: "read_skill_file", arguments: arguments), options: InvocationOptions()))
            } catch {
                return .failure(error)
            }
        }
        let skill = try #require(try? await read(["name": "time-zones", "path": "SKILL.md", "offset": 10]).get())
        #expect(skill["offset"] == 10)
        let file = try Data(contentsOf: URL(fileURLWithPath: Self.packageRoot + "/Plugins/Instructions/time-zones/SKILL.md"))
        #expect(skill["text"]?.stringValue == String(decoding: file.dropFirst(10), as: UTF8.self))
        #expect(skill["next_offset"] == .null)
        for path in ["../writing-summaries/SKILL.md", "/etc/passwd", "../../secret.txt"] {
            guard case .failure(let error) = await read(["name": "time-zones", "path": .string(path)]) else {
                Issue.record("\(path) was read")
                continue
            }
            #expect(error.kind == .denied, "\(path): \(error)")
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/skills/writing-summaries/leak.txt", withDestinationPath: root + "/secret.txt")
        guard case .failure = await read(["name": "writing-summaries", "path": "leak.txt"]) else {
            Issue.record("a link out of the folder was followed")
            return
        }
        // A large file comes in capped chunks that join up.
        let big = String(repeating: "0123456789abcdé\n", count: 3000)
        try big.write(toFile: root + "/skills/time-zones/references.md", atomically: true, encoding: .utf8)
        var text = ""
        var offset: Int64? = 0
        var rounds = 0
        while let next = offset, rounds < 20 {
            let chunk = try await read(["name": "time-zones", "path": "references.md", "offset": .int(next)]).get()
            #expect((chunk["text"]?.stringValue?.utf8.count ?? 0) <= InstructionTools.fileLimit)
            text += chunk["text"]?.stringValue ?? ""
            offset = chunk["next_offset"]?.intValue
            rounds += 1
        }
        #expect(text == big)
    }

    /// Scripts are not this backend's: the activation says which tool runs them (``ScriptToolBackend``).
    @Test func anActivationPointsAtTheScriptTool() async throws {
        let (backend, _) = try Self.backend()
        let result = try await backend.run(
            try backend.prepare(skillID: "activate_skill", arguments: ["name": "release-notes"]), options: InvocationOptions())
        #expect(result["files"] == ["scripts/draft.sh"])
        #expect(result["scripts"]?.stringValue?.hasPrefix("run a script with run_skill_script") == true)
        let tools = try await backend.listTools().map(\.id)
        #expect(!tools.contains { $0.contains("script") || $0.contains("bash") })
    }

    /// A second activation of the same skill in a session is not sent twice; another session gets it whole.
    @Test func aSecondActivationInASessionIsNotSentAgain() async throws {
        let (backend, _) = try Self.backend()
        let session = InvocationOptions(sessionContext: SessionContext())
        let prepared = try backend.prepare(skillID: "activate_skill", arguments: ["name": "time-zones"])
        let first = try await backend.run(prepared, options: session)
        #expect(first["instructions"]?.stringValue?.isEmpty == false)
        let second = try await backend.run(prepared, options: session)
        #expect(second["instructions"] == nil)
        #expect(second["already_active"]?.stringValue?.contains("earlier in this conversation") == true)
        let other = try await backend.run(prepared, options: InvocationOptions(sessionContext: SessionContext()))
        #expect(other["instructions"] == first["instructions"])
    }

    @Test func noInstructionToolsWhileNoneIsEnabled() async throws {
        let (library, root) = try Self.library()
        try FileManager.default.removeItem(atPath: root + "/skills")
        let backend = InstructionSkillBackend(base: TestSkills.backend(TestSkills.clockNow), library: library)
        #expect(try await backend.listTools().map(\.id) == ["clock.now"])
        #expect(await backend.instructionPrompt() == "")
    }

    @Test func theOfflinePlannerNamesTheSkillAndQuotesItsFirstLines() async throws {
        let (backend, _) = try Self.backend()
        let agent = Agent(provider: OfflineProvider(), backend: backend)
        let all = await events(of: agent, "how should I plan a meeting across time zones for my team?")
        let started = all.compactMap { if case .skillStarted(let info) = $0 { info } else { nil } }
        #expect(started.map(\.skillID) == ["time-zones"])
        let answer = try #require(all.answer)
        #expect(answer.contains("time-zones"))
        #expect(answer.contains("> # Time zones with the clock skills"))
        #expect(answer.contains("> Never compute time zone offsets in your head"))
    }

    /// The client guide: an activated skill's instructions are protected from trimming (the call and its
    /// result stay together, over the budget if need be), as are the user message and the latest unit.
    @Test func theTrimmerKeepsAnActivationOverTheBudget() throws {
        let body = try Self.timeZonesBody()
        let call = ToolCall(id: "a1", name: "activate_skill", arguments: ["name": "time-zones"])
        let messages: [ChatMessage] = [
            .system("You are helpful."), .user("plan a meeting across zones"),
            .assistant("", toolCalls: [call]), .tool(callID: "a1", content: body),
            .assistant("", toolCalls: [ToolCall(id: "n1", name: "clock_now", arguments: ["timezone": "Asia/Tokyo"])]),
            .tool(callID: "n1", content: "{\"time\":\"10:00\"}"),
        ]
        let all = TokenEstimator.tokens(in: messages)
        #expect(HistoryTrimmer(budget: all).trim(messages) == messages)  // kept while it fits
        let trimmed = HistoryTrimmer(budget: all - 50).trim(messages)
        #expect(trimmed.contains { $0.role == .user && $0.content == "plan a meeting across zones" })
        #expect(trimmed == messages, "nothing else could go: the activation stays")
        let longer = messages + [.assistant("It is 10:00 in Tokyo."), .user("and in Berlin?"), .assistant("09:00.")]
        let cut = HistoryTrimmer(budget: TokenEstimator.tokens(in: longer) - 50).trim(longer)
        #expect(cut.contains { $0.toolCallID == "a1" } && cut.flatMap(\.toolCalls).contains { $0.id == "a1" })
        #expect(!cut.contains { $0.toolCallID == "n1" }, "the other call of the dropped turn goes")
        #expect(cut.contains { $0.content == "and in Berlin?" })
    }
}
