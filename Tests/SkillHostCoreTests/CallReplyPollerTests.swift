import Foundation
import Synchronization
import Testing

@testable import SkillHostCore

@Suite("CallReplyPoller")
struct CallReplyPollerTests {
    /// How deep the stack is where this is called from.
    private static func stackDepth() -> Int { Thread.callStackSymbols.count }

    @Test("a check that waits through many polls is reached as directly on the last as on the first")
    func aWaitingCheckIsNotWrappedAgainOnEveryPoll() {
        // A check still waiting goes back on the list after every poll; stored as a bare closure, each trip
        // wrapped it in two more thunks, so a long wait was checked through a chain that grew with each poll.
        let poller = CallReplyPoller()
        let depths = Mutex<[Int]>([])
        let polls = Mutex(0)
        poller.add {
            depths.withLock { $0.append(Self.stackDepth()) }
            return polls.withLock { count in
                count += 1
                return count == 500
            }
        }
        var settled = 0
        for _ in 0..<500 { settled += poller.poll() }
        #expect(settled == 1)
        #expect(!poller.hasPending)
        let seen = depths.withLock { $0 }
        #expect(seen.count == 500)
        #expect(seen.first == seen.last, "the check was reached \(seen.last.map { $0 - (seen.first ?? 0) } ?? 0) frames deeper on its 500th poll")
    }

    @Test("settled checks leave; waiting ones stay ahead of those added meanwhile")
    func settledChecksLeaveAndWaitingOnesKeepTheirPlace() {
        let poller = CallReplyPoller()
        let order = Mutex<[String]>([])
        let firstDone = Mutex(false)
        poller.add {
            order.withLock { $0.append("first") }
            return firstDone.withLock { $0 }
        }
        poller.add {
            order.withLock { $0.append("second") }
            return true
        }
        #expect(poller.poll() == 1)
        poller.add {
            order.withLock { $0.append("third") }
            return true
        }
        firstDone.withLock { $0 = true }
        #expect(poller.poll() == 2)
        #expect(poller.poll() == 0)
        #expect(order.withLock { $0 } == ["first", "second", "first", "third"])
    }

    @Test("a loop may sleep on the checks' descriptors only while every waiting check has one")
    func descriptorsOnlyWhenEveryCheckHasOne() {
        let poller = CallReplyPoller()
        var watched: [Int32] = [99]
        var due: UInt64 = 0
        #expect(!poller.descriptors(into: &watched, due: &due), "no check: nothing to sleep on")
        #expect(watched.isEmpty)
        let answered = Mutex(false)
        poller.add(watching: 7) { answered.withLock { $0 } }
        poller.add(watching: 7) { answered.withLock { $0 } }
        #expect(poller.descriptors(into: &watched, due: &due))
        #expect(watched == [7], "one descriptor once")
        #expect(due == .max, "checks without a budget: no time to wake at")
        poller.add(watching: 8, due: 5_000) { answered.withLock { $0 } }
        poller.add(watching: 7, due: 3_000) { answered.withLock { $0 } }
        #expect(poller.descriptors(into: &watched, due: &due))
        #expect(watched == [7, 8] && due == 3_000, "the earliest budget's end")
        // A worker reply is found only by polling: the loop must keep polling.
        let polled = Mutex(false)
        poller.add { polled.withLock { $0 } }
        #expect(!poller.descriptors(into: &watched, due: &due))
        polled.withLock { $0 = true }
        #expect(poller.poll() == 1)
        #expect(poller.descriptors(into: &watched, due: &due))
        answered.withLock { $0 = true }
        #expect(poller.poll() == 4)
        #expect(!poller.descriptors(into: &watched, due: &due))
    }
}
