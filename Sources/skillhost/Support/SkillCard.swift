import SkillAgent
import SkillHostCore

/// One skill call as the chat shows it under the assistant's message: pending, running with its elapsed
/// time, ✓ with a one-line summary of the result, or ✗ with the error (whose message carries the remedy).
struct SkillCard {
    /// Where the call is.
    enum Status {
        case pending
        case running(since: ContinuousClock.Instant)
        case succeeded(summary: String, seconds: Double)
        case failed(message: String, seconds: Double)
    }

    /// The model's call id.
    var callID: String
    /// The skill id, or the tool name when it maps to no skill.
    var name: String
    /// Where the call is.
    var status: Status
    /// Whether the user is being asked to approve the call.
    var awaitingApproval = false

    /// Whether the call has ended.
    var isDone: Bool {
        switch status {
        case .succeeded, .failed: return true
        case .pending, .running: return false
        }
    }

    /// Whether the call has not started yet.
    var isPending: Bool {
        if case .pending = status { return true }
        return false
    }

    /// The card as one terminal line: symbols, and colours when `color` is set.
    func terminalLine(now: ContinuousClock.Instant, color: Bool, width: Int) -> String {
        let (symbol, tint, text): (String, String, String)
        switch status {
        case .pending:
            (symbol, tint, text) = ("○", "2", "pending")
        case .running where awaitingApproval:
            (symbol, tint, text) = ("?", "35", "waiting for your approval")
        case .running(let since):
            (symbol, tint, text) = ("◐", "33", "running " + Self.format(seconds(since.duration(to: now))))
        case .succeeded(let summary, let seconds):
            (symbol, tint, text) = ("✓", "32", summary + "  (" + Self.format(seconds) + ")")
        case .failed(let message, let seconds):
            (symbol, tint, text) = ("✗", "31", message + "  (" + Self.format(seconds) + ")")
        }
        var line = "  \(symbol) \(name)  \(text)"
        if line.count > width { line = String(line.prefix(max(10, width - 1))) + "…" }
        return color ? "\u{1B}[\(tint)m" + line + "\u{1B}[0m" : line
    }

    /// The card as plain text for logs and pipes (one line per change, no control characters).
    var plainLine: String {
        switch status {
        case .pending: return "  [pending] \(name)"
        case .running where awaitingApproval: return "  [approval] \(name)"
        case .running: return "  [running] \(name)"
        case .succeeded(let summary, let seconds): return "  [ok] \(name): \(summary) (\(Self.format(seconds)))"
        case .failed(let message, let seconds): return "  [failed] \(name): \(message) (\(Self.format(seconds)))"
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// "0.21 s", "12.4 s".
    static func format(_ seconds: Double) -> String { SecondsText.format(seconds) + " s" }
}
