import Glibc
import SkillHostCore
import SkillJSON
import SkillStore

/// Measures what recording adds to one skill call: ``StoreCallRecorder``'s decision, start and finish on a
/// real database file (run by `skillhost __bench-history`, scripts/bench-history.sh).
public enum RecorderBenchmark {
    /// One measured mode.
    public struct Result: Sendable {
        /// What was measured.
        public var name: String
        /// Calls recorded.
        public var iterations: Int
        /// Mean wall-clock microseconds per call.
        public var microsecondsPerCall: Double
        /// Mean CPU microseconds (user + system) per call: what the call pays on a machine that is not
        /// busy with other work.
        public var cpuMicrosecondsPerCall: Double
    }

    /// Records `iterations` calls of an idempotent skill (no lookup) and of a non-idempotent one (key lookup
    /// before each call) into a new database at `path`, each with a small result and one context change.
    public static func run(path: String, iterations: Int) throws(StoreError) -> [Result] {
        let store = try HistoryStore(path: path)
        try store.createSession(id: "bench")
        let context = SessionContext()
        let recorder = StoreCallRecorder(store: store, sessionID: "bench", context: context)
        let result: JSONValue = ["time": "12:00", "weekday": "Monday", "date": "2026-11-30", "timezone": "Europe/Paris"]
        var results: [Result] = []
        for idempotent in [true, false] {
            let tool = AgentTool(
                skillID: "bench.echo", description: "bench", parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
                idempotent: idempotent)
            let clock = ContinuousClock()
            let cpuStart = cpuMicroseconds()
            let start = clock.now
            for index in 0..<iterations {
                let call = RecordedCall(
                    callID: "c\(index)", toolName: "bench_echo", skillID: "bench.echo",
                    argumentsText: "{\"text\":\"hello \(index)\"}", tool: tool, sessionID: "bench")
                var recorded = call
                if case .run(let key) = recorder.decision(for: call) { recorded.idempotencyKey = key }
                let handle = recorder.callStarted(recorded)
                context.set(.int(Int64(index)), forKey: "counter")
                recorder.callFinished(handle, call: recorded, outcome: .success(result), seconds: 0.0001, replayed: false)
            }
            let elapsed = start.duration(to: clock.now)
            let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
            let cpu = cpuMicroseconds() - cpuStart
            results.append(
                Result(
                    name: idempotent ? "record call (idempotent skill)" : "record call (non-idempotent: key lookup)",
                    iterations: iterations, microsecondsPerCall: microseconds / Double(iterations),
                    cpuMicrosecondsPerCall: cpu / Double(iterations)))
        }
        return results
    }

    /// User + system CPU time of this process, in microseconds.
    static func cpuMicroseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
        let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
        return user + system
    }
}
