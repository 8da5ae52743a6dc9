import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

/// A turn lists its tools with the async listing through every layer (``SkillBackend/listTools()``), never
/// with the blocking ``SkillBackend/tools()``: below the agent that one waits for MCP servers by blocking
/// its thread on a semaphore while the listing needs a thread of the concurrency pool — and the agent runs on
/// that pool (a hang when all its threads wait, one per core).
@Suite struct AgentToolListingTests {
    /// The test skills, telling which listing reached them.
    final class ListingSpy: SkillBackend {
        let inner = TestSkills.backend(TestSkills.clockNow)
        let blocking = Mutex(0)
        let suspending = Mutex(0)

        func tools() throws(HostError) -> [SkillTool] {
            blocking.withLock { $0 += 1 }
            return try inner.tools()
        }
        func listTools() async throws(HostError) -> [SkillTool] {
            suspending.withLock { $0 += 1 }
            return try inner.tools()
        }
        func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
            try inner.prepare(skillID: skillID, arguments: arguments)
        }
        func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
            try await inner.run(call, options: options)
        }
    }

    /// Instruction skills, telling which listing reached them (an MCP server's skills are listed like its tools).
    final class LibrarySpy: InstructionLibrary {
        let inner: HostInstructionLibrary
        let blocking = Mutex(0)
        let suspending = Mutex(0)

        init(_ inner: HostInstructionLibrary) { self.inner = inner }

        func enabledSkills() throws(HostError) -> [(name: String, description: String)] {
            blocking.withLock { $0 += 1 }
            return try inner.enabledSkills()
        }
        func loadEnabledSkills() async throws(HostError) -> [(name: String, description: String)] {
            suspending.withLock { $0 += 1 }
            return try inner.enabledSkills()
        }
        func skill(named name: String) throws(HostError) -> InstructionSkill { try inner.skill(named: name) }
        func read(skill: String, path: String, offset: Int, limit: Int) throws(HostError) -> (bytes: [UInt8], size: Int64) {
            try inner.read(skill: skill, path: path, offset: offset, limit: limit)
        }
    }

    @Test func aTurnListsItsToolsWithoutBlocking() async throws {
        let spy = ListingSpy()
        let library = LibrarySpy(try InstructionSkillAgentTests.library().0)
        // The layers a chat stacks over its skills (the MCP servers' tools go under them, as `spy` does here).
        let backend = InstructionSkillBackend(base: spy, library: library)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [ToolCall(id: "c1", name: "clock_now", argumentsText: #"{"timezone":"Asia/Tokyo"}"#)]),
            ModelReply(content: "It is 10:00 in Tokyo."),
        ])
        let all = await events(of: Agent(provider: provider, backend: backend), "what time is it in Tokyo")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(provider.requests.first?.tools.map(\.name).contains("clock_now") == true)
        #expect(spy.suspending.withLock { $0 } == 1, "the turn listed its tools once, with listTools()")
        #expect(spy.blocking.withLock { $0 } == 0, "the turn listed its tools with the blocking tools() from the concurrency pool")
        // The tools and the system prompt name the instruction skills.
        #expect(provider.requests.first?.tools.map(\.name).contains("activate_skill") == true)
        #expect(library.suspending.withLock { $0 } == 2)
        #expect(library.blocking.withLock { $0 } == 0, "the turn listed the instruction skills with the blocking enabledSkills()")
    }

    /// The MCP servers' layer lists a server's tools by awaiting it, and its base with the async listing too.
    @Test(.timeLimit(.minutes(5))) func theMCPServersToolsAreListedWithoutBlocking() async throws {
        let (host, _) = try MCPSourceChatTests.hostWithTime()
        let spy = ListingSpy()
        let sources = MCPSourceBackend(
            base: spy, host: host, launcher: MCPServerLauncher(hostExecutable: try TestPackage.skillhostBinary(), paths: host.paths))
        defer { sources.shutdown() }
        let listed = try await sources.listTools().map(\.id)
        #expect(listed.contains("time.get_current_time") && listed.contains("clock.now"), "\(listed)")
        #expect(spy.blocking.withLock { $0 } == 0, "the base was listed with the blocking tools()")
        // The blocking form, from a thread of its own, lists the same from the listing now at hand.
        let blocking = await BlockingThread.runDetached { () -> [String]? in try? sources.tools().map(\.id) }
        #expect(blocking == listed)
        #expect(spy.blocking.withLock { $0 } == 1)
    }
}
