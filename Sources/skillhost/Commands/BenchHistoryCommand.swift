import Foundation
import SkillAgent
import SkillJSON

/// `skillhost __bench-history DIR [--plugin FILE --skill ID] [--iterations N] [--only I,J] [--json]`: what recording a
/// skill call in the history costs (hidden; run by scripts/bench-history.sh).
enum BenchHistoryCommand: Command {
    static let name = "__bench-history"
    static let summary = "measure the cost of recording a skill call (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __bench-history DIR [--plugin FILE --skill ID] [--iterations N] [--only I,J] [--json]

        Creates DIR/history.sqlite3 (DIR must not hold one) and, in one run, calls skill ID of the plugin
        FILE in this process N times (default 5000) per mode: alone, between the messages the history
        stores, and with the agent's recorder (decision, call row, finish with a result and a context
        change). Prints the median microseconds per call (wall and CPU) over the rounds, and with --json
        also the lowest round's CPU (cpu_min_us). Without --plugin a fixed result
        stands in for the call. --only runs just the modes at those indexes, in that order (0 = the first
        printed; to see whether a mode's figure depends on its place in the rounds, or the others). The
        thread running mode I is named bench-mode-I, so a profiler tells modes apart (perf record -e
        cpu-clock --call-graph dwarf, then perf report --sort comm). Build with -c release;
        scripts/bench-history.sh does.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: ["--iterations", "--plugin", "--skill", "--only"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected DIR") }
        guard let iterations = Int(parsed.options["--iterations"] ?? "5000"), iterations >= 10 else {
            throw UsageError("--iterations needs a whole number of at least 10")
        }
        let path = parsed.positionals[0] + "/history.sqlite3"
        guard !FileManager.default.fileExists(atPath: path) else { throw UsageError("\(path) exists; pass an empty folder") }
        var skill: RecorderBenchmark.Skill?
        if let plugin = parsed.options["--plugin"] {
            guard let skillID = parsed.options["--skill"] else { throw UsageError("--plugin needs --skill ID") }
            let absolute = plugin.hasPrefix("/") ? plugin : FileManager.default.currentDirectoryPath + "/" + plugin
            skill = RecorderBenchmark.Skill(pluginPath: absolute, skillID: skillID)
        }
        var only: [Int]?
        if let list = parsed.options["--only"] {
            let indexes = list.split(separator: ",").map { Int($0) }
            guard !indexes.isEmpty, indexes.allSatisfy({ $0 != nil && $0! >= 0 && $0! < RecorderBenchmark.modeCount }) else {
                throw UsageError(
                    "--only needs mode indexes from 0 to \(RecorderBenchmark.modeCount - 1) separated by commas (0 = the first mode), e.g. --only 1,2")
            }
            only = indexes.compactMap { $0 }
        }
        let results = try RecorderBenchmark.run(path: path, iterations: iterations, skill: skill, only: only)
        if parsed.has("--json") {
            HostOptions.printJSON(.array(results.map {
                ["name": .string($0.name), "iterations": .int(Int64($0.iterations)), "mean_us": .double($0.microsecondsPerCall),
                 "cpu_us": .double($0.cpuMicrosecondsPerCall), "cpu_min_us": .double($0.minimumCPUMicrosecondsPerCall)]
            }))
        } else {
            for result in results {
                print(String(
                    format: "  %-50@ wall %7.1f µs/call, cpu %6.1f µs/call  (%d calls)", result.name as NSString,
                    result.microsecondsPerCall, result.cpuMicrosecondsPerCall, result.iterations))
            }
        }
        return ExitCode.success
    }
}
