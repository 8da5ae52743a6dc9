import SkillCalls
import Synchronization
import Testing

@testable import SkillMCP

/// The limiter's line: places pass in arrival order, a cancelled waiter never starts, and a long line that
/// wraps around its ring keeps its order.
@Suite struct MCPCallLimiterTests {
    /// The tickets of started waiters, in the order they started.
    final class Started: Sendable {
        let order = Mutex<[Int]>([])
        func start(_ ticket: Int) -> @Sendable () -> Void { { [self] in order.withLock { $0.append(ticket) } } }
        var tickets: [Int] { order.withLock { $0 } }
    }

    @Test func placesPassInArrivalOrder() {
        let limiter = MCPCallLimiter()
        let limit = CallLimit(group: "g", limit: 2)
        let started = Started()
        #expect(limiter.takeOrQueue(limit, ticket: 1, start: { started.start(1) }))
        #expect(limiter.takeOrQueue(limit, ticket: 2, start: { started.start(2) }))
        for ticket in 3...6 { #expect(!limiter.takeOrQueue(limit, ticket: ticket, start: { started.start(ticket) })) }
        limiter.release(limit)
        limiter.release(limit)
        #expect(started.tickets == [3, 4])
        // Another group has places of its own.
        #expect(limiter.takeOrQueue(CallLimit(group: "other", limit: 1), ticket: 7, start: { started.start(7) }))
        limiter.release(limit)
        limiter.release(limit)
        #expect(started.tickets == [3, 4, 5, 6])
        // Nobody waits: the places come free, and the next call takes one at once.
        limiter.release(limit)
        limiter.release(limit)
        #expect(limiter.takeOrQueue(limit, ticket: 8, start: { started.start(8) }))
        #expect(limiter.takeOrQueue(limit, ticket: 9, start: { started.start(9) }))
        #expect(!limiter.takeOrQueue(limit, ticket: 10, start: { started.start(10) }))
    }

    @Test func cancelledWaiterNeverStarts() {
        let limiter = MCPCallLimiter()
        let limit = CallLimit(group: "g", limit: 1)
        let started = Started()
        #expect(limiter.takeOrQueue(limit, ticket: 1, start: { started.start(1) }))
        for ticket in 2...4 { #expect(!limiter.takeOrQueue(limit, ticket: ticket, start: { started.start(ticket) })) }
        #expect(limiter.cancel(limit, ticket: 3))
        #expect(!limiter.cancel(limit, ticket: 3))
        #expect(!limiter.cancel(limit, ticket: 1))  // running, not queued
        limiter.release(limit)
        limiter.release(limit)
        #expect(started.tickets == [2, 4])
        // The line is empty: the place comes free and is taken at once.
        limiter.release(limit)
        #expect(limiter.takeOrQueue(limit, ticket: 5, start: { started.start(5) }))
        // Every waiter cancelled: still a line until then, free after.
        #expect(!limiter.takeOrQueue(limit, ticket: 6, start: { started.start(6) }))
        #expect(limiter.cancel(limit, ticket: 6))
        limiter.release(limit)
        #expect(limiter.takeOrQueue(limit, ticket: 7, start: { started.start(7) }))
        #expect(started.tickets == [2, 4])
    }

    @Test func longLineKeepsItsOrderAcrossWrapsAndGrowth() {
        let limiter = MCPCallLimiter()
        let limit = CallLimit(group: "g", limit: 1)
        let started = Started()
        #expect(limiter.takeOrQueue(limit, ticket: 0, start: { started.start(0) }))
        var next = 1
        var cancelled: Set<Int> = []
        var released = 0
        // Queue and release in uneven rounds so that the ring wraps, grows while wrapped, and has holes.
        for round in 1...40 {
            for _ in 0..<(round % 7 + 3) {
                #expect(!limiter.takeOrQueue(limit, ticket: next, start: { started.start(next) }))
                next += 1
            }
            if round % 5 == 0 {
                #expect(limiter.cancel(limit, ticket: next - 2))
                cancelled.insert(next - 2)
            }
            for _ in 0..<(round % 4 + 1) { limiter.release(limit) }
            released += round % 4 + 1
        }
        let expected = (1..<next).filter { !cancelled.contains($0) }
        #expect(started.tickets == Array(expected.prefix(released)))
        for _ in released..<expected.count { limiter.release(limit) }
        #expect(started.tickets == expected)
        // The line is empty again: the place comes free and is taken at once.
        limiter.release(limit)
        #expect(limiter.takeOrQueue(limit, ticket: next, start: { started.start(next) }))
    }
}
