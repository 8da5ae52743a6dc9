import SkillAgent
import SkillHostCore
import SkillJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Prints a chat's events: the assistant's text as it streams, and a card per skill call under the message.
/// In a terminal the cards are redrawn in place (a running card shows its elapsed time); otherwise each
/// change is a plain line; with `--json` each event is one JSON line. Thread-safe (a ticker redraws).
final class ChatRenderer: Sendable {
    enum Mode: Sendable {
        case terminal(color: Bool)
        case plain
        case json
    }

    private struct State {
        var cards: [SkillCard] = []
        /// Lines of the current card block already on screen (terminal mode).
        var linesOnScreen = 0
        /// Whether the last text printed ended a line.
        var atLineStart = true
        /// While an approval prompt is up, nothing is redrawn.
        var paused = false
    }

    let mode: Mode
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    init(mode: Mode) { self.mode = mode }

    /// Renders one event.
    func render(_ event: AgentEvent) {
        if case .json = mode {
            Self.write(event.jsonValue.serialized() + "\n")
            return
        }
        if case .notice(let line) = event { return warn("note: " + line) }
        state.withLock { state in
            switch event {
            case .token(let text):
                if !state.cards.isEmpty {  // a new message after the cards of the last one
                    state.cards = []
                    state.linesOnScreen = 0
                }
                Self.write(text)
                state.atLineStart = text.hasSuffix("\n")
            case .messageCompleted(let message):
                if !state.atLineStart {
                    Self.write("\n")
                    state.atLineStart = true
                }
                state.cards = message.toolCalls.map { SkillCard(callID: $0.id, name: $0.name, status: .pending) }
                state.linesOnScreen = 0
                draw(&state, changed: state.cards.indices)
            case .skillStarted(let info):
                update(&state, info) { $0.status = .running(since: clock.now) }
            case .skillSucceeded(let info, let result, let seconds):
                let summary = (info.replayed ? "replayed: " : "") + info.summary(of: result)
                update(&state, info) { $0.status = .succeeded(summary: summary, seconds: seconds) }
            case .skillFailed(let info, let error, let seconds):
                update(&state, info) { $0.status = .failed(message: error.message, seconds: seconds) }
            case .turnFailed, .stateChanged, .notice:
                break
            }
        }
    }

    /// Redraws running cards (their elapsed time); called by a ticker.
    func tick() {
        guard case .terminal = mode else { return }
        state.withLock { state in
            guard !state.paused, state.cards.contains(where: { if case .running = $0.status { true } else { false } }) else { return }
            draw(&state, changed: [])
        }
    }

    /// Marks `skillID`'s running card as waiting for approval, then stops redrawing while the user answers
    /// the prompt; ``resume()`` starts a fresh block below it.
    func pause(awaitingApprovalOf skillID: String) {
        state.withLock { state in
            if let index = state.cards.firstIndex(where: { $0.name == skillID && !$0.isDone }) {
                state.cards[index].awaitingApproval = true
                draw(&state, changed: index..<(index + 1))
            }
            state.paused = true
        }
    }

    func resume() {
        state.withLock { state in
            state.paused = false
            for index in state.cards.indices { state.cards[index].awaitingApproval = false }
            state.linesOnScreen = 0
            draw(&state, changed: state.cards.indices)
        }
    }

    /// Shows a warning from the host (e.g. an untrusted plugin): in a terminal above the cards, which are
    /// redrawn below it; otherwise on stderr.
    func warn(_ line: String) {
        guard case .terminal = mode else {
            HostOptions.standardErrorSink.warning(line)
            return
        }
        state.withLock { state in
            var text = state.linesOnScreen > 0 ? "\u{1B}[\(state.linesOnScreen)A" : ""
            if !state.atLineStart, state.linesOnScreen == 0 { text += "\n" }
            text += "\r\u{1B}[2K" + line + "\n"
            Self.write(text)
            state.atLineStart = true
            state.linesOnScreen = 0
            draw(&state, changed: state.cards.indices)
        }
    }

    /// Ends the turn's output with a newline.
    func finishTurn() {
        guard case .json = mode else {
            state.withLock { state in
                if !state.atLineStart { Self.write("\n") }
                state.atLineStart = true
                state.cards = []
                state.linesOnScreen = 0
            }
            return
        }
    }

    private func update(_ state: inout State, _ info: SkillCallInfo, _ change: (inout SkillCard) -> Void) {
        guard let index = state.cards.firstIndex(where: { $0.callID == info.callID }) else { return }
        change(&state.cards[index])
        if let skill = info.skillID { state.cards[index].name = skill }
        draw(&state, changed: index..<(index + 1))
    }

    private func draw<R: Sequence>(_ state: inout State, changed: R) where R.Element == Int {
        switch mode {
        case .json: return
        case .plain:
            // Pending is implied by the running line that follows at once; print starts and ends only.
            for index in changed where !(state.cards[index].isPending) { Self.write(state.cards[index].plainLine + "\n") }
        case .terminal(let color):
            guard !state.paused else { return }
            var text = state.linesOnScreen > 0 ? "\u{1B}[\(state.linesOnScreen)A" : ""
            let now = clock.now
            for card in state.cards {
                text += "\r\u{1B}[2K" + card.terminalLine(now: now, color: color, width: Self.terminalWidth) + "\n"
            }
            Self.write(text)
            state.linesOnScreen = state.cards.count
        }
    }

    private static var terminalWidth: Int {
        var size = winsize()
        return ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 ? Int(size.ws_col) : 100
    }

    /// Writes to stdout unbuffered, so streamed text appears at once.
    static func write(_ text: String) {
        Posix.writeAll(1, Array(text.utf8))
    }
}
