/// What a worker pool does after its worker crashes: wait a little longer after each crash in a row, and
/// give up (mark the plugin broken) after too many.
public struct CrashPolicy: Sendable, Equatable {
    /// Crashes in a row (no successful call between) after which the plugin is marked broken.
    public var maximumConsecutiveCrashes: Int
    /// Wait before starting a worker again after the first crash, in seconds; doubles with each crash.
    public var initialBackoff: Double
    /// The longest wait before starting a worker again, in seconds.
    public var maximumBackoff: Double

    /// Five crashes in a row; waits of 0.05, 0.1, 0.2, 0.4 s … up to 2 s.
    public init(maximumConsecutiveCrashes: Int = 5, initialBackoff: Double = 0.05, maximumBackoff: Double = 2) {
        self.maximumConsecutiveCrashes = maximumConsecutiveCrashes
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// Seconds to wait before starting a worker after `crashes` crashes in a row (0 for none).
    public func backoff(afterCrashes crashes: Int) -> Double {
        guard crashes > 0 else { return 0 }
        var delay = initialBackoff
        for _ in 1..<min(crashes, 32) { delay *= 2 }
        return min(delay, maximumBackoff)
    }
}
