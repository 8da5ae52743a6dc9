import Foundation
import SkillJSON

/// What the page hears: every event of the running turn and of the approvals, as JSON objects, fanned out
/// to each open event stream (`GET /api/events`, server-sent events). A stream that falls behind by more
/// than ``backlogLimit`` events is closed (the page reconnects and reloads the session).
public final class WebEvents: @unchecked Sendable {
    /// Events a subscriber may have waiting.
    public static let backlogLimit = 10_000

    /// One open stream's queue.
    public final class Subscription: @unchecked Sendable {
        fileprivate var queue: [JSONValue] = []
        fileprivate var closed = false
    }

    private let condition = NSCondition()
    private var subscribers: [ObjectIdentifier: Subscription] = [:]
    private var stopped = false

    /// An empty fan-out.
    public init() {}

    /// Sends `event` to every open stream.
    public func publish(_ event: JSONValue) {
        condition.lock()
        for subscription in subscribers.values where !subscription.closed {
            subscription.queue.append(event)
            if subscription.queue.count > Self.backlogLimit { subscription.closed = true }
        }
        condition.broadcast()
        condition.unlock()
    }

    /// A new stream's queue.
    public func subscribe() -> Subscription {
        let subscription = Subscription()
        condition.lock()
        subscription.closed = stopped
        subscribers[ObjectIdentifier(subscription)] = subscription
        condition.unlock()
        return subscription
    }

    /// Forgets a stream.
    public func unsubscribe(_ subscription: Subscription) {
        condition.lock()
        subscribers[ObjectIdentifier(subscription)] = nil
        condition.unlock()
    }

    /// The events waiting for `subscription`, after waiting up to `seconds` for one; nil when the stream is
    /// to close (the server stops, or the stream fell behind).
    public func next(_ subscription: Subscription, waiting seconds: Double) -> [JSONValue]? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while subscription.queue.isEmpty, !subscription.closed {
            if !condition.wait(until: deadline) { break }
        }
        if subscription.closed { return nil }
        let events = subscription.queue
        subscription.queue = []
        return events
    }

    /// Closes every stream (the server stops).
    public func close() {
        condition.lock()
        stopped = true
        for subscription in subscribers.values { subscription.closed = true }
        condition.broadcast()
        condition.unlock()
    }
}
