/// When a model provider tries a failed request again: after HTTP 429 (honouring `retry-after` up to a
/// limit) and after 5xx (529 "overloaded" included), with a doubling back-off, a bounded number of times.
struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt.
    var maxRetries: Int
    /// The longest wait, in seconds; a larger `retry-after` fails at once instead.
    var maxRetryDelay: Double
    /// The first back-off, in seconds (doubled for each retry).
    var initialRetryDelay: Double

    /// Seconds to wait before retry number `attempt + 1` after `head`, or nil when the failure is final.
    func delay(for head: HTTPResponseHead, attempt: Int) -> Double? {
        guard attempt < maxRetries else { return nil }
        switch head.status {
        case 429:
            let advised = head.headers["retry-after"].flatMap { Double($0.trimmingWhitespace()) }
            let delay = advised ?? initialRetryDelay * Double(1 << attempt)
            return delay <= maxRetryDelay ? max(0, delay) : nil
        case 500...599:
            return min(initialRetryDelay * Double(1 << attempt), maxRetryDelay)
        default:
            return nil
        }
    }
}
