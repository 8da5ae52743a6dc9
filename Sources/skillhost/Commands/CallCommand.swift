import Foundation
import SkillHostCore
import SkillJSON
import Synchronization

/// `skillhost call SKILL_ID [JSON|-] [--yes] [--json]`: calls one skill and prints its result.
enum CallCommand: Command {
    static let name = "call"
    static let summary = "call one skill with JSON arguments"
    static let help = """
        usage: skillhost call SKILL_ID [JSON|-] [--yes] [--json]

        Validates the arguments (a JSON object; '-' reads it from stdin; default {}) against the skill's
        parameter schema, runs the skill and prints its result JSON. Skills with permission write or
        dangerous need approval: a y/N prompt when stdin is a terminal, --yes to allow; when not
        interactive they are denied.

        Options:
          --yes     approve write/dangerous skills without asking
          --json    print {"ok":true,"result":...} or {"ok":false,"error":{"kind","message","details"}}

        Exit codes: 3 not found, 4 disabled, 5 invalid arguments, 6 skill failed, 7 timeout,
        8 plugin crashed, 9 invalid plugin, 10 denied, 11 rate limited (docs/cli.md).
        """

    /// The spare worker `main` forked before anything else ran (``SpareWorker/forkEarly(executable:)``).
    static let earlySpare = Mutex<SpareWorker?>(nil)

    static func run(_ arguments: [String]) async throws -> Int32 {
        var early = earlySpare.withLock { spare in
            defer { spare = nil }
            return spare
        }
        // A command line refused before the host exists ends the forked spare here (it loaded nothing).
        defer { early?.discard() }
        let parsed = try ParsedArguments(arguments, flags: ["--yes", "--json"], options: [])
        guard (1...2).contains(parsed.positionals.count) else {
            throw UsageError("expected SKILL_ID and optionally a JSON object (or '-' for stdin)")
        }
        let text = parsed.positionals.count == 2 ? parsed.positionals[1] : "{}"
        let source = text == "-" ? "stdin" : "the command line"
        let bytes = text == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(text.utf8)
        let callArguments: JSONValue
        do {
            callArguments = try JSONValue(parsing: bytes)
        } catch {
            throw HostError(.invalidArguments, "the arguments from \(source) are not JSON (\(error.description)); pass an object like '{\"key\": \"value\"}'")
        }
        let host = HostOptions.host(parsed)
        // The worker is ready for its plugin while this process reads the catalog and runs the gates: forked
        // first thing in main, or started now.
        if let spare = early {
            early = nil
            host.holdSpareWorker(spare)
        } else {
            await host.startSpareWorker()
        }
        let options = InvocationOptions(approval: TerminalApproval.handler(assumeYes: parsed.has("--yes")))
        do {
            let result = try await host.invoke(skillID: parsed.positionals[0], arguments: callArguments, options: options)
            // The answer first (flushed, so a reader of the pipe has it), then the worker is stopped.
            HostOptions.printJSON(parsed.has("--json") ? ["ok": true, "result": result] : result)
            fflush(nil)
            await host.shutdown()
            return ExitCode.success
        } catch {
            await host.shutdown()
            if parsed.has("--json") {
                HostOptions.printJSON([
                    "ok": false,
                    "error": ["kind": .string(error.kind.rawValue), "message": .string(error.message), "details": error.details ?? .null],
                ])
            }
            throw error
        }
    }
}
