import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization

/// Approval at the terminal, for `call` and `chat`: a `y/N` question on stderr, answered on stdin, one at a
/// time. `--yes` allows everything instead; when stdin is not a terminal nothing is asked and such calls
/// are denied (``DenyAllApproval``).
struct TerminalApproval: ApprovalHandler {
    /// Told before the question is shown and after it is answered (chat pauses its cards meanwhile).
    var asking: @Sendable (ApprovalRequest) -> Void = { _ in }
    var answered: @Sendable () -> Void = {}

    /// The handler for these settings: allow all with `--yes`, the prompt on a terminal, else deny all.
    static func handler(assumeYes: Bool, around prompt: TerminalApproval = TerminalApproval()) -> any ApprovalHandler {
        if assumeYes { return AllowAllApproval() }
        guard isatty(0) == 1 else { return DenyAllApproval() }
        return prompt
    }

    private static let promptLock = Mutex(())

    func approve(_ request: ApprovalRequest) async -> Bool {
        asking(request)
        defer { answered() }
        return await Self.ask(request)
    }

    /// Asks on stderr and reads the answer from stdin on a thread of its own (never blocking the Swift pool).
    /// A cancelled task (Ctrl-C while the question is up) stops the reading thread before it reads anything,
    /// so the next line typed goes to chat, not to a question nobody waits for.
    static func ask(_ request: ApprovalRequest) async -> Bool {
        let wake = Posix.Wakeup()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    let answer: Bool = promptLock.withLock { _ in
                        let skill = request.skill
                        let lead = request.note.map { $0 + " — " } ?? ""
                        // A script names its skill and path (its permission is the skill's: ScriptPolicy).
                        let what = skill.id == ScriptPolicy.toolID && !skill.pluginID.isEmpty
                            ? "script \(request.arguments["path"]?.stringValue ?? "?") of skill \(skill.pluginID) (\(skill.id))"
                            : "skill \(skill.id) (\(skill.title))"
                        let question = "\(lead)Allow \(skill.permission.rawValue) \(what) with \(request.arguments.serialized())? [y/N] "
                        FileHandle.standardError.write(Data(question.utf8))
                        guard let line = Posix.readLine(0, unlessWoken: wake) else { return false }
                        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
                        return word == "y" || word == "yes"
                    }
                    continuation.resume(returning: answer)
                }
                thread.start()
            }
        } onCancel: {
            wake.signal()
        }
    }
}
