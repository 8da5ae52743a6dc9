import SkillHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Measures what the sandbox costs (issue #10): starting a worker (spawn until `ready`) with and without
/// the sandbox, and one frame round trip to each kind of worker. Run by `scripts/bench-dispatch.sh
/// --sandbox` through `skillhost __bench-sandbox`. Starts alternate between the two kinds so machine load
/// hits both alike.
enum SandboxBenchmark {
    /// Medians in microseconds.
    public struct Result: Sendable {
        public var startPlain: Double
        public var startSandboxed: Double
        /// CPU time (user + system) of a worker's whole life (start, then stop), mean of all starts: steadier
        /// than wall time on a loaded machine.
        public var cpuPlain: Double
        public var cpuSandboxed: Double
        public var roundTripPlain: Double
        public var roundTripSandboxed: Double
        public var starts: Int
        public var calls: Int
    }

    /// Starts `starts` workers of each kind, then makes `calls` round trips to one of each.
    /// - Throws: ``HostError`` when a worker cannot start.
    public static func run(
        pluginPath: String, skillID: String, workerExecutable: String, starts: Int = 40, calls: Int = 5000
    ) async throws(HostError) -> Result {
        let sandbox = SandboxPolicy(mode: .required, rules: [SandboxPolicy.Rule(path: "/tmp", access: .readWrite)])
        let outcome: Result? = await BlockingThread.runDetached {
            var plain: [Double] = []
            var sandboxed: [Double] = []
            var cpu: [Double] = [0, 0]
            for index in 0..<(2 * starts + 2) {
                let policy = index % 2 == 0 ? nil : sandbox
                let cpuBefore = childrenCPUMicroseconds()
                let start = Posix.monotonicNanoseconds()
                guard let worker = try? WorkerProcess.launch(
                    executable: workerExecutable, pluginPath: pluginPath, limits: .defaults, startupTimeout: 10,
                    sandbox: policy)
                else { return nil }
                let micros = Double(Posix.monotonicNanoseconds() - start) / 1e3
                worker.stop()
                if index >= 2 { cpu[index % 2] += childrenCPUMicroseconds() - cpuBefore }
                if index >= 2 { policy == nil ? plain.append(micros) : sandboxed.append(micros) }  // first pair warms up
            }
            let request = WorkerCallRequest(
                skillID: skillID, callID: "bench", sessionID: "", idempotencyKey: "", dataDirectory: "/tmp",
                deadlineUnixMilliseconds: 0, configurationJSON: Array("{}".utf8), argumentsJSON: Array("{}".utf8),
                context: [:])
            // Round trips: one worker of each kind, batches alternating between them.
            guard let plainWorker = try? WorkerProcess.launch(
                executable: workerExecutable, pluginPath: pluginPath, limits: .defaults, startupTimeout: 10),
                let sandboxedWorker = try? WorkerProcess.launch(
                    executable: workerExecutable, pluginPath: pluginPath, limits: .defaults, startupTimeout: 10,
                    sandbox: sandbox)
            else { return nil }
            defer {
                plainWorker.stop()
                sandboxedWorker.stop()
            }
            var plainBatches: [Double] = []
            var sandboxedBatches: [Double] = []
            let batch = max(calls / 20, 1)
            for round in 0..<42 {
                let worker = round % 2 == 0 ? plainWorker : sandboxedWorker
                let start = Posix.monotonicNanoseconds()
                for _ in 0..<batch { _ = worker.perform(request, deadline: Posix.monotonicNanoseconds() + 10_000_000_000) }
                let micros = Double(Posix.monotonicNanoseconds() - start) / 1e3 / Double(batch)
                if round >= 2 { round % 2 == 0 ? plainBatches.append(micros) : sandboxedBatches.append(micros) }
            }
            let plainTrip = median(plainBatches), sandboxedTrip = median(sandboxedBatches)
            return Result(
                startPlain: median(plain), startSandboxed: median(sandboxed), cpuPlain: cpu[0] / Double(starts),
                cpuSandboxed: cpu[1] / Double(starts), roundTripPlain: plainTrip,
                roundTripSandboxed: sandboxedTrip, starts: starts, calls: calls)
        }
        guard let outcome else { throw HostError(.io, "benchmark: cannot start a worker for \(pluginPath)") }
        return outcome
    }

    /// User + system CPU microseconds of this process's reaped children so far.
    private static func childrenCPUMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
