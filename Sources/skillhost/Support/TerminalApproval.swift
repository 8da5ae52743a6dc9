import Foundation
import SkillHostCore
import SkillJSON
import Synchronization

/// Approval of `write` / `dangerous` skills at the terminal, for `call` and `chat`:
/// `--yes` allows everything; otherwise, when stdin is a terminal, a `y/N` prompt on stderr (one at a
/// time); otherwise nothing is asked and such calls are denied.
enum TerminalApproval {
    /// The approval handler for these settings, or nil (deny) when no one can be asked.
    static func handler(assumeYes: Bool) -> InvocationOptions.ApprovalHandler? {
        if assumeYes { return { _, _ in true } }
        guard isatty(0) == 1 else { return nil }
        return { skill, arguments in await ask(skill, arguments) }
    }

    private static let promptLock = Mutex(())

    /// Asks on stderr and reads the answer from stdin on a thread of its own (never blocking the Swift pool).
    static func ask(_ skill: SkillDescription, _ arguments: JSONValue) async -> Bool {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let answer: Bool = promptLock.withLock { _ in
                    let question = "Allow \(skill.permission.rawValue) skill \(skill.id) (\(skill.title)) with \(arguments.serialized())? [y/N] "
                    FileHandle.standardError.write(Data(question.utf8))
                    guard let line = readLine() else { return false }
                    let word = line.trimmingCharacters(in: .whitespaces).lowercased()
                    return word == "y" || word == "yes"
                }
                continuation.resume(returning: answer)
            }
            thread.start()
        }
    }
}
