import Glibc
import SkillHostCore
import SkillJSON
import SkillStore

/// Measures what recording adds to one skill call on a real database file (run by
/// `skillhost __bench-history`, scripts/bench-history.sh): the history writes the assistant message that
/// asks for the call either way; recording adds the call's row to that transaction, the decision, and the
/// finish (result, summary, one context change).
public enum RecorderBenchmark {
    /// One measured mode.
    public struct Result: Sendable {
        /// What was measured.
        public var name: String
        /// Iterations.
        public var iterations: Int
        /// Mean wall-clock microseconds per iteration.
        public var microsecondsPerCall: Double
        /// Mean CPU microseconds (user + system) per iteration: what it costs on a machine not busy with
        /// other work.
        public var cpuMicrosecondsPerCall: Double
    }

    /// Runs every mode `iterations` times on a new database at `path`.
    public static func run(path: String, iterations: Int) throws(StoreError) -> [Result] {
        let store = try HistoryStore(path: path)
        try store.createSession(id: "bench")
        let context = SessionContext()
        let planned = PlannedCalls()
        let ahead = StoreCallRecorder(store: store, sessionID: "bench", context: context, planned: planned)
        let alone = StoreCallRecorder(store: store, sessionID: "bench", context: context)
        let result: JSONValue = ["time": "12:00", "weekday": "Monday", "date": "2026-11-30", "timezone": "Europe/Paris"]
        let message = { (index: Int) in
            MessageRecord(
                role: "assistant", content: "",
                toolCallsJSON: "[{\"id\":\"c\(index)\",\"name\":\"bench_echo\",\"arguments\":\"{\\\"text\\\":\\\"hello \(index)\\\"}\"}]")
        }
        func call(_ index: Int, idempotent: Bool) -> RecordedCall {
            let tool = AgentTool(
                skillID: "bench.echo", description: "bench", parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
                idempotent: idempotent)
            return RecordedCall(
                callID: "c\(index)", toolName: "bench_echo", skillID: "bench.echo",
                argumentsText: "{\"text\":\"hello \(index)\"}", tool: tool, sessionID: "bench")
        }
        func record(_ recorder: StoreCallRecorder, _ call: RecordedCall, _ index: Int) {
            var recorded = call
            switch recorder.decision(for: call) {
            case .run(let key): recorded.idempotencyKey = key
            case .replay(_, let key), .confirmRetry(_, let key): recorded.idempotencyKey = key
            }
            let handle = recorder.callStarted(recorded)
            context.set(.int(Int64(index)), forKey: "counter")
            recorder.callFinished(handle, call: recorded, outcome: .success(result), seconds: 0.0001, replayed: false)
        }
        var results: [Result] = []
        func measure(_ name: String, _ body: (Int) throws(StoreError) -> Void) throws(StoreError) {
            let clock = ContinuousClock()
            let cpuStart = cpuMicroseconds()
            let start = clock.now
            for index in 0..<iterations { try body(index) }
            let elapsed = start.duration(to: clock.now)
            let wall = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
            let cpu = cpuMicroseconds() - cpuStart
            results.append(
                Result(name: name, iterations: iterations, microsecondsPerCall: wall / Double(iterations),
                       cpuMicrosecondsPerCall: cpu / Double(iterations)))
        }
        try measure("before: assistant message only") { index throws(StoreError) in
            _ = try store.appendMessages([message(index)], session: "bench", calls: [])
        }
        for idempotent in [true, false] {
            try measure("after: message + call (\(idempotent ? "idempotent" : "non-idempotent, key lookup"))") { index throws(StoreError) in
                let row = try store.appendMessages(
                    [message(index)], session: "bench",
                    calls: [CallRecord(callID: "c\(index)", sessionID: "bench", skillID: "bench.echo", argumentsJSON: "{}", status: .started, startedMilliseconds: store.now())])
                planned.plan(row[0], callID: "c\(index)")
                record(ahead, call(index, idempotent: idempotent), index)
            }
        }
        try measure("call recorded without a history (2 transactions)") { index throws(StoreError) in
            record(alone, call(index, idempotent: true), index)
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
