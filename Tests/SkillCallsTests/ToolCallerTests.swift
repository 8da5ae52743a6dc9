import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import Synchronization
import Testing

/// The one path of a tool call (``ToolCaller``): what every front end gets from it, checked once here with
/// in-memory skills (``MemoryBackend``: the host's validator, approval policy and deadline).
@Suite struct ToolCallerTests {
    static func tool(_ id: String, permission: Permission = .read, timeout: Double = 5, output: JSONValue? = nil) -> SkillTool {
        var tool = SkillTool(
            id: id, title: "Title of \(id)", description: "Does \(id).",
            parameters: ["type": "object", "properties": ["text": ["type": "string"]], "additionalProperties": false],
            permission: permission, timeout: timeout, idempotent: permission == .read)
        tool.outputSchema = output
        return tool
    }

    static func request(_ tool: SkillTool?, _ arguments: CallArguments = .text("{}"), name: String? = nil, origin: CallOrigin = .call) -> ToolCallRequest {
        ToolCallRequest(toolName: name ?? tool?.id ?? "?", tool: tool, arguments: arguments, callID: "c1", origin: origin)
    }

    /// A person who takes `seconds` to say `answer`.
    /// The requests a person was asked.
    final class Asked: Sendable {
        private let requests = Mutex<[ApprovalRequest]>([])
        func append(_ request: ApprovalRequest) { requests.withLock { $0.append(request) } }
        var all: [ApprovalRequest] { requests.withLock { $0 } }
    }

    static func person(after seconds: Double, says answer: Bool, asked: Asked? = nil) -> ClosureApproval {
        ClosureApproval { request in
            asked?.append(request)
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            return answer
        }
    }

    @Test func waitingForAPersonIsNotTheSkillsTime() async throws {
        let tool = Self.tool("notes.add", permission: .write, timeout: 1)
        let backend = MemoryBackend([MemoryBackend.Skill(tool: tool) { _, _ in
            try await Task.sleep(for: .milliseconds(50))
            return ["saved": true]
        }])
        let asked = Asked()
        let caller = ToolCaller(backend: backend, approval: Self.person(after: 2.5, says: true, asked: asked))
        let outcome = await caller.call(Self.request(tool))
        #expect(try outcome.result.get() == ["saved": true])
        #expect(asked.all.map(\.reason) == [.permission])
        #expect(outcome.seconds < 2, "the 2.5 s the person took is not the call's: \(outcome.seconds)")
        #expect(outcome.seconds >= 0.05)
        // The skill still has its own time limit, counted from when it starts.
        let slow = MemoryBackend([MemoryBackend.Skill(tool: tool) { _, _ in
            try await Task.sleep(for: .seconds(30))
            return [:]
        }])
        let late = await ToolCaller(backend: slow, approval: Self.person(after: 2.5, says: true)).call(Self.request(tool))
        #expect(late.failure?.kind == .timeout)
        #expect(late.failure?.message.contains("(limit 1 s)") == true, "\(late.failure?.message ?? "")")
    }

    @Test func aRefusalIsReportedWithItsRemedyAndNothingRuns() async throws {
        let tool = Self.tool("notes.add", permission: .write)
        let backend = MemoryBackend([MemoryBackend.Skill(tool: tool) { _, _ in ["saved": true] }])
        let nobody = await ToolCaller(backend: backend).call(Self.request(tool))
        #expect(nobody.refused)
        #expect(nobody.failure?.kind == .denied)
        #expect(nobody.failure?.message.contains("needs approval and no one was asked; pass --yes") == true)
        #expect(nobody.failure?.message.contains("plugins.notes.skills.notes.add.approval") == true)
        let no = await ToolCaller(backend: backend, approval: Self.person(after: 0, says: false)).call(Self.request(tool))
        #expect(no.refused)
        #expect(no.failure?.message == "skill notes.add was not approved; nothing was run")
        #expect(backend.invocations.isEmpty)
        // A read skill, or a write skill the registry allows, asks nobody.
        let allowed = MemoryBackend([MemoryBackend.Skill(tool: tool, approval: .allow) { _, _ in ["saved": true] }])
        let asked = Asked()
        let ran = await ToolCaller(backend: allowed, approval: Self.person(after: 0, says: false, asked: asked)).call(Self.request(tool))
        #expect(try ran.result.get() == ["saved": true])
        #expect(asked.all.isEmpty)
    }

    @Test func cancellingWhileAPersonIsAskedStopsWaitingAtOnce() async {
        let tool = Self.tool("notes.add", permission: .write)
        let backend = MemoryBackend([MemoryBackend.Skill(tool: tool) { _, _ in [:] }])
        let caller = ToolCaller(backend: backend, approval: Self.person(after: 30, says: true))
        let started = ContinuousClock.now
        let task = Task { await caller.call(Self.request(tool)) }
        try? await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let outcome = await task.value
        #expect(outcome.failure?.kind == .cancelled)
        #expect(outcome.refused, "not run: recorded like a refusal")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(backend.invocations.isEmpty)
    }

    @Test func argumentsAreParsedOnceAndCheckedByTheBackend() async throws {
        let tool = Self.tool("text.echo")
        let backend = MemoryBackend([MemoryBackend.Skill(tool: tool) { arguments, _ in arguments }])
        let caller = ToolCaller(backend: backend)
        let broken = await caller.call(Self.request(tool, .text(#"{"text": "#)))
        #expect(broken.failure?.kind == .invalidArguments)
        #expect(broken.failure?.message.hasPrefix("the arguments of text.echo are not valid JSON (") == true)
        let array = await caller.call(Self.request(tool, .bytes(Array("[1]".utf8))))
        #expect(array.failure?.message.contains("arguments must be a JSON object, got array") == true)
        let extra = await caller.call(Self.request(tool, .value(["text": "hi", "more": 1])))
        #expect(extra.failure?.kind == .invalidArguments)
        #expect(extra.failure?.details != nil)
        let fine = await caller.call(Self.request(tool, .value(["text": "hi"])))
        #expect(try fine.result.get() == ["text": "hi"])
        #expect(backend.invocations.count == 1)
    }

    @Test func anUnknownToolFailsWithTheFrontEndsWording() async {
        let names = ToolNameMap(skillIDs: ["clock.now", "text.echo"])
        let outcome = await ToolCaller(backend: MemoryBackend([])).call(ToolCallRequest(
            toolName: "clock_nwo", tool: nil, arguments: .text("{}"), callID: "c", origin: .chat,
            unknownTool: names.unknownTool("clock_nwo", use: "use one of the tools offered")))
        #expect(outcome.failure?.kind == .notFound)
        #expect(outcome.failure?.message == #"unknown tool "clock_nwo"; did you mean "clock_now"? use one of the tools offered"#)
    }

    @Test func aResultIsCheckedAgainstTheOutputSchemaOnce() async throws {
        let schema: JSONValue = ["type": "object", "properties": ["count": ["type": "integer"]], "required": ["count"]]
        let tool = Self.tool("text.count", output: schema)
        let backend = MemoryBackend([MemoryBackend.Skill(tool: tool) { arguments, _ in
            arguments["text"] == "ok" ? ["count": 2] : ["count": "two"]
        }])
        let caller = ToolCaller(backend: backend)
        #expect(try await caller.call(Self.request(tool, .value(["text": "ok"]))).result.get() == ["count": 2])
        let wrong = await caller.call(Self.request(tool, .value(["text": "bad"])))
        #expect(wrong.failure?.kind == .invalidResult)
        #expect(wrong.failure?.message.contains("does not match its output_schema") == true)
        #expect(ToolCallOutcome.text(of: wrong.failure!).hasPrefix("invalidResult: skill text.count returned a result"))
    }

    @Test func outcomesMapToOneWordingForEveryFrontEnd() {
        let error = HostError(.invalidArguments, "skill a.b: invalid arguments: `/x`: expected a string")
        #expect(ToolCallOutcome.text(of: error)
            == "invalidArguments: skill a.b: invalid arguments: `/x`: expected a string. Correct the arguments so they match the tool's parameter schema (inputSchema) and call the tool again.")
        let tool = SkillTool(id: "clock.now", description: "Now.", summary: "It is {time}.")
        #expect(ToolCallOutcome.templatedText(of: ["time": "10:00"], tool: tool) == "It is 10:00.")
        #expect(ToolCallOutcome.summary(of: ["other": 1], tool: tool) == "other: 1")
        for kind in HostError.Kind.allCases { #expect(!ToolCallOutcome.nextStep(for: kind).isEmpty) }
    }
}
