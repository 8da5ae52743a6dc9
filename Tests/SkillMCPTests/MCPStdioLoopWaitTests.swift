import SkillPosix
import Testing
@testable import SkillMCP

/// The stdio loop's sleep while it waits for an MCP server's answer: until the first check's budget ends,
/// never a fixed tick.
@Suite struct MCPStdioLoopWaitTests {
    @Test("poll's timeout: none without a budget, 0 once it passed, the milliseconds left rounded up")
    func timeoutUntilTheBudgetEnds() {
        #expect(MCPStdioTransport.milliseconds(until: .max) == -1)
        #expect(MCPStdioTransport.milliseconds(until: 0) == 0)
        let now = Posix.monotonicNanoseconds()
        #expect(MCPStdioTransport.milliseconds(until: now &- 1) == 0)
        // 1.5 ms ahead: 2 (1 would wake before the budget ends, to find nothing to do).
        let left = MCPStdioTransport.milliseconds(until: now &+ 1_500_000)
        #expect(left == 2 || left == 1, "\(left)")  // 1 only when this thread was descheduled for over 0.5 ms
        #expect(MCPStdioTransport.milliseconds(until: now &+ 10_000_000_000) > 9_000)
    }
}
