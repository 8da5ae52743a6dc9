import SkillCalls
import Glibc
import SkillHostCore
import SkillJSON
import SkillStore

/// Measures what recording adds to one skill call on a real database file (run by
/// `skillhost __bench-history`, scripts/bench-history.sh), in one run:
/// - `dispatch only`: the skill's in-process call (the dispatch benchmark's row) and the parse of its result;
/// - `history, no recording`: the same call between the two messages the history stores anyway (the
///   assistant message that asks for it, the tool message that answers);
/// - `history + recording`: the same plus everything the call recorder does (the call's skill and key in
///   the assistant message's `tool_calls`, the decision, the call's whole row with result, summary and one
///   context change logged and committed with the tool message), for an idempotent skill and for a
///   non-idempotent one (idempotency-key lookup), and as before the finish log (the row committed in a
///   transaction of its own);
/// - the same for a reply that asks for 4 calls (their finishes share the tool messages' transaction);
/// - `recorder alone`: the recorder without a persistent history (it inserts the call's row itself).
/// Modes run in interleaved rounds; each row gives the median round (the machine is shared). The thread is
/// named `bench-mode-I` while mode I runs, for a profiler (`perf report --sort comm`).
enum RecorderBenchmark {
    /// One measured mode.
    struct Result: Sendable {
        /// What was measured.
        var name: String
        /// Iterations.
        var iterations: Int
        /// Median over rounds of the mean wall-clock microseconds per iteration.
        var microsecondsPerCall: Double
        /// Median over rounds of the mean CPU microseconds (user + system) per iteration: what it costs on
        /// a machine not busy with other work.
        var cpuMicrosecondsPerCall: Double
        /// The lowest round's mean CPU microseconds per iteration: the round least disturbed by other
        /// work on a shared machine (a steadier figure to compare builds by than the median).
        var minimumCPUMicrosecondsPerCall: Double
    }

    /// The skill called: a C plugin file and skill id (scripts/bench/dispatch_echo.c), or nil for a fixed
    /// result without a plugin.
    struct Skill: Sendable {
        /// Absolute path of the plugin file.
        var pluginPath: String
        /// The skill's id.
        var skillID: String
    }

    /// How many modes a run has (indexes for `only`).
    static let modeCount = 8

    /// Rounds each mode is split into.
    static let rounds = 5
    /// Calls per session.
    static let sessionLength = 100

    /// Runs every mode `iterations` times on a new database at `path`; with `only`, just the modes at
    /// those indexes, in that order (for a profiler, which cannot tell modes apart, or to see whether a
    /// mode's figure depends on its place in the rounds).
    static func run(path: String, iterations: Int, skill: Skill? = nil, only: [Int]? = nil) throws -> [Result] {
        let store = try HistoryStore(path: path)
        let context = SessionContext()
        let planned = PlannedCalls()
        // Calls go to sessions of ``sessionLength`` calls each (a long chat), as the history sees them: one
        // session of every call would make each key a random place in one huge stretch of the index.
        var recorders: [String: (ahead: StoreCallRecorder, alone: StoreCallRecorder, committing: StoreCallRecorder)] = [:]
        var latest = (number: -1, id: "")
        func session(_ index: Int) throws -> String {
            if latest.number != index / sessionLength { latest = (index / sessionLength, sessionID(index / sessionLength)) }
            let id = latest.id
            if recorders[id] == nil {
                try store.createSession(id: id)
                recorders[id] = (
                    StoreCallRecorder(store: store, sessionID: id, context: context, planned: planned),
                    StoreCallRecorder(store: store, sessionID: id, context: context),
                    StoreCallRecorder(store: store, sessionID: id, context: context, planned: planned, commitsEachFinish: true)
                )
            }
            return id
        }
        let dispatch = try dispatcher(skill)
        let tool = { (idempotent: Bool) in
            SkillTool(
                id: "bench.echo", description: "bench", parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
                idempotent: idempotent)
        }
        let tools = [true: tool(true), false: tool(false)]
        func arguments(_ index: Int) -> String { "{\"text\":\"hello \(index)\"}" }
        func asking(_ index: Int, key: String? = nil) -> MessageRecord {
            let planning = key.map { ",\"skill_id\":\"bench.echo\",\"idempotency_key\":\"\($0)\"" } ?? ""
            return MessageRecord(
                role: "assistant", content: "",
                toolCallsJSON: "[{\"id\":\"c\(index)\",\"name\":\"bench_echo\",\"arguments\":\"{\\\"text\\\":\\\"hello \(index)\\\"}\"\(planning)}]")
        }
        func answer(_ index: Int, _ result: JSONValue) -> MessageRecord {
            MessageRecord(role: "tool", content: result.serialized(), toolCallID: "c\(index)")
        }
        func call(_ index: Int, idempotent: Bool, session: String) -> RecordedCall {
            RecordedCall(
                ToolCallRequest(
                    toolName: "bench_echo", tool: tools[idempotent], arguments: .text(arguments(index)), callID: "c\(index)",
                    origin: .chat),
                arguments: try? JSONValue(parsing: arguments(index)), sessionID: session)
        }
        /// The skill runs (it changes one context key, as `context_set` would).
        func runSkill(_ index: Int) -> JSONValue {
            let result = dispatch(arguments(index))
            context.set(.int(Int64(index)), forKey: "counter")
            return result
        }
        func record(_ recorder: StoreCallRecorder, _ index: Int, idempotent: Bool) -> JSONValue {
            var recorded = call(index, idempotent: idempotent, session: recorder.sessionID)
            recorded.idempotencyKey = recorder.decision(for: recorded).idempotencyKey
            let handle = recorder.callStarted(recorded)
            let result = runSkill(index)
            recorder.callFinished(
                handle, call: recorded, outcome: ToolCallOutcome(tool: recorded.tool, result: .success(result), seconds: 0.0001))
            return result
        }
        let modes: [(String, (Int) throws -> Void)] = [
            ("dispatch only (in-process call)", { index in _ = runSkill(index) }),
            ("history, no recording", { index in
                let id = try session(index)
                try store.appendMessages([asking(index)], session: id)
                try store.appendMessages([answer(index, runSkill(index))], session: id)
            }),
            ("history + recording (idempotent skill)", { index in
                try recordWithHistory(index, idempotent: true)
            }),
            ("history + recording (non-idempotent, key lookup)", { index in
                try recordWithHistory(index, idempotent: false)
            }),
            ("history + recording, finish in its own transaction", { index in
                try recordWithHistory(index, idempotent: true, committing: true)
            }),
            ("history + recording, 4 calls per reply (per call)", { index in
                if index % 4 == 0 { try recordReply(index, committing: false) }
            }),
            ("same, each finish in its own transaction", { index in
                if index % 4 == 0 { try recordReply(index, committing: true) }
            }),
            ("recorder alone (no persistent history)", { index in _ = record(recorders[try session(index)]!.alone, index, idempotent: true) }),
        ]
        func recordWithHistory(_ index: Int, idempotent: Bool, committing: Bool = false) throws {
            let id = try session(index)
            let recorder = committing ? recorders[id]!.committing : recorders[id]!.ahead
            // What PersistentHistory does with the assistant message: the call's key in its tool_calls entry,
            // the call planned (its row is written with its finish).
            let key = try IdempotencyKey.make(sessionID: id, skillID: "bench.echo", arguments: JSONValue(parsing: arguments(index)))
            // A non-idempotent skill's earlier calls with the key are read in the same transaction.
            let (position, earlier) =
                idempotent
                ? (try store.appendMessages([asking(index, key: key)], session: id), [:])
                : try store.appendMessages([asking(index, key: key)], session: id, lookingUp: [key])
            planned.plan(
                CallRecord(
                    callID: "c\(index)", sessionID: id, messagePosition: position, skillID: "bench.echo",
                    argumentsJSON: arguments(index), status: .started, startedMilliseconds: store.now(), idempotencyKey: key),
                earlier: earlier[key])
            let result = record(recorder, index, idempotent: idempotent)
            try store.appendMessages([answer(index, result)], session: id)
        }
        /// One reply asking for 4 calls (indexes `first`…`first + 3`), which run one after the other; their
        /// tool messages are stored together, as the agent does.
        func recordReply(_ first: Int, committing: Bool) throws {
            let id = try session(first)
            let recorder = committing ? recorders[id]!.committing : recorders[id]!.ahead
            let indexes = first..<first + 4
            var records: [CallRecord] = []
            for index in indexes {
                let key = try IdempotencyKey.make(sessionID: id, skillID: "bench.echo", arguments: JSONValue(parsing: arguments(index)))
                records.append(CallRecord(
                    callID: "c\(index)", sessionID: id, skillID: "bench.echo", argumentsJSON: arguments(index), status: .started,
                    startedMilliseconds: store.now(), idempotencyKey: key))
            }
            let position = try store.appendMessages([asking(first, key: records[0].idempotencyKey)], session: id)
            for var record in records {
                record.messagePosition = position
                planned.plan(record)
            }
            let answers = indexes.map { index in answer(index, record(recorder, index, idempotent: true)) }
            try store.appendMessages(answers, session: id)
        }
        assert(modes.count == modeCount, "modeCount must count the modes")
        let chosen = only?.filter { modes.indices.contains($0) } ?? Array(modes.indices)
        var samples: [[(wall: Double, cpu: Double)]] = Array(repeating: [], count: modes.count)
        let perRound = max(1, iterations / rounds)
        var index = 0
        for round in 0..<rounds {
            // Alternate the order so no mode always runs right after the same one.
            let order = round % 2 == 0 ? chosen : chosen.reversed()
            for mode in order {
                // The thread is named after the mode while it runs, so a profiler tells the modes of one run
                // apart (`perf report --sort comm`: `bench-mode-3`).
                nameThread("bench-mode-\(mode)")
                let clock = ContinuousClock()
                let cpuStart = cpuMicroseconds()
                let start = clock.now
                for _ in 0..<perRound {
                    try modes[mode].1(index)
                    index += 1
                }
                let elapsed = start.duration(to: clock.now)
                let wall = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
                samples[mode].append((wall / Double(perRound), (cpuMicroseconds() - cpuStart) / Double(perRound)))
            }
        }
        nameThread("skillhost")
        try store.flushFinishes()
        return chosen.map { mode in
            Result(
                name: modes[mode].0, iterations: perRound * rounds, microsecondsPerCall: median(samples[mode].map(\.wall)),
                cpuMicrosecondsPerCall: median(samples[mode].map(\.cpu)), minimumCPUMicrosecondsPerCall: samples[mode].map(\.cpu).min() ?? 0)
        }
    }

    /// Calls the skill in this process and parses its result; without a skill, returns a fixed result.
    static func dispatcher(_ skill: Skill?) throws -> (String) -> JSONValue {
        let fixed: JSONValue = ["time": "12:00", "weekday": "Monday", "date": "2026-11-30", "timezone": "Europe/Paris"]
        guard let skill else { return { _ in fixed } }
        let library = try PluginLibrary.load(path: skill.pluginPath)
        let context = PluginCallContext(callID: "bench", dataDirectory: "/tmp", log: { _, _ in })
        return { arguments in
            let reply = library.invoke(skillID: skill.skillID, arguments: Array(arguments.utf8), context: context)
            return (try? JSONValue(parsing: String(decoding: reply.bytes, as: UTF8.self))) ?? .null
        }
    }

    /// The id of session `number`: `bench-` and 8 hex digits of a one-to-one mix of the number. New
    /// sessions sort anywhere among the old ones, as the product's random UUIDs do, so every mode's rows go
    /// into the middle of the session-keyed trees (`messages`, the calls' index). With `bench-N` they went to
    /// the end for some sessions only (`bench-100` sorts before `bench-11`), and how many depended on a
    /// mode's place in the run and on the calls per mode: at 20,000 calls per mode the key-lookup mode got
    /// none of those cheaper sessions, the idempotent one a tenth and the no-recording one a fifth.
    static func sessionID(_ number: Int) -> String {
        var mixed = UInt32(truncatingIfNeeded: number)
        mixed = (mixed ^ (mixed >> 16)) &* 0x045d_9f3b
        mixed = (mixed ^ (mixed >> 16)) &* 0x045d_9f3b
        mixed ^= mixed >> 16
        let hex = String(mixed, radix: 16)
        return "bench-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Names the calling thread (its `comm`, at most 15 bytes), as profilers show it.
    static func nameThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        _ = name.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
        close(file)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
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
