import Foundation
import SkillHostCore

/// `skillhost __bench-sandbox FILE SKILL_ID [--starts N] [--calls N]`: worker start and round trip with and
/// without the sandbox (hidden; run by `scripts/bench-dispatch.sh --sandbox`).
enum BenchSandboxCommand: Command {
    static let name = "__bench-sandbox"
    static let summary = "measure the sandbox's cost (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __bench-sandbox FILE SKILL_ID [--starts N] [--calls N]

        Starts N workers (default 40) for FILE without and N with the sandbox, alternating, and prints the
        median start time of each; then makes --calls round trips (default 5000) to one worker of each kind.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: ["--starts", "--calls"])
        guard parsed.positionals.count == 2 else { throw UsageError("expected FILE and SKILL_ID") }
        guard let starts = Int(parsed.options["--starts"] ?? "40"), starts >= 1,
            let calls = Int(parsed.options["--calls"] ?? "5000"), calls >= 20
        else { throw UsageError("--starts needs a whole number ≥ 1 and --calls one ≥ 20") }
        let file = parsed.positionals[0]
        let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        let result = try await SandboxBenchmark.run(
            pluginPath: path, skillID: parsed.positionals[1], workerExecutable: HostOptions.helperExecutable,
            starts: starts, calls: calls)
        func format(_ value: Double) -> String { String(Int(value.rounded())) }
        func fraction(_ value: Double) -> String { String((value * 100).rounded() / 100) }
        print("sandbox (\(KernelSandbox.summary))")
        print("worker start, unsandboxed   median \(format(result.startPlain)) µs  (\(result.starts) starts)")
        print("worker start, sandboxed     median \(format(result.startSandboxed)) µs  (difference \(format(result.startSandboxed - result.startPlain)) µs)")
        print("worker CPU (start + stop), unsandboxed  mean \(format(result.cpuPlain)) µs, sandboxed \(format(result.cpuSandboxed)) µs")
        print("frame round trip, unsandboxed  median \(fraction(result.roundTripPlain)) µs  (\(result.calls) calls)")
        print("frame round trip, sandboxed    median \(fraction(result.roundTripSandboxed)) µs")
        return ExitCode.success
    }
}
