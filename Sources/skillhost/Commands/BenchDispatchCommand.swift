import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost __bench-dispatch FILE SKILL_ID [--iterations N] [--swift-twin FILE] [--json]`: measures a call's
/// cost in-process, as a worker frame round trip, and through the worker executor (hidden; run by scripts/bench-dispatch.sh).
enum BenchDispatchCommand: Command {
    static let name = "__bench-dispatch"
    static let summary = "measure dispatch cost per call (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __bench-dispatch FILE SKILL_ID [ARGUMENTS_JSON] [--iterations N] [--swift-twin FILE]
                                          [--json]

        Loads FILE in this process and in a worker, calls SKILL_ID N times (default 20000) each way, and
        prints the mean and median microseconds per call. --swift-twin also calls SKILL_ID of a second
        plugin in this process (the same skill written with SkillSDK, e.g. libBenchEchoSkill.so), to show
        what the SDK adds. Build with -c release for meaningful numbers; scripts/bench-dispatch.sh does.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: ["--iterations", "--swift-twin"])
        guard (2...3).contains(parsed.positionals.count) else { throw UsageError("expected FILE and SKILL_ID") }
        let iterations = Int(parsed.options["--iterations"] ?? "20000") ?? 0
        guard iterations >= 20 else { throw UsageError("--iterations needs a whole number of at least 20") }
        let callArguments: JSONValue
        do {
            callArguments = try JSONValue(parsing: parsed.positionals.count == 3 ? parsed.positionals[2] : "{}")
        } catch {
            throw UsageError("ARGUMENTS_JSON is not JSON: \(error)")
        }
        let skillID = parsed.positionals[1]
        let file = parsed.positionals[0]
        let absolute = { (file: String) in file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file }
        let path = absolute(file)
        let results = try await DispatchBenchmark.run(
            pluginPath: path, pluginID: String(skillID.split(separator: ".").first ?? ""), skillID: skillID,
            arguments: callArguments, workerExecutable: HostOptions.helperExecutable, iterations: iterations,
            swiftTwinPath: parsed.options["--swift-twin"].map(absolute))
        if parsed.has("--json") {
            HostOptions.printJSON(.array(results.map { result in
                ["name": .string(result.name), "iterations": .int(Int64(result.iterations)),
                 "mean_us": .double(result.microsecondsPerCall), "median_batch_us": .double(result.medianBatchMicroseconds),
                 "min_batch_us": .double(result.minimumBatchMicroseconds),
                 "max_batch_us": .double(result.maximumBatchMicroseconds),
                 "median_batch_cpu_us": result.medianBatchCPUMicroseconds.map(JSONValue.double) ?? .null]
            }))
        } else {
            for result in results {
                let mean = format(result.microsecondsPerCall)
                let median = format(result.medianBatchMicroseconds)
                let cpu = result.medianBatchCPUMicroseconds.map { "  CPU \(format($0)) µs" } ?? ""
                print(
                    "\(result.name.padding(toLength: 26)) mean \(mean) µs  median \(median) µs\(cpu)  (\(result.iterations) calls)")
            }
        }
        return ExitCode.success
    }

    /// Two decimals.
    private static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
