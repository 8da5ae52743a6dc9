import SkillHostCore
import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// Measures what a call costs in each execution mode, for `scripts/bench-dispatch.sh`
/// (`skillhost __bench-dispatch`): the plugin's `invoke` in this process, one frame round trip to a worker
/// (request out, reply back, on a host-owned thread), and a whole ``WorkerPoolExecutor/execute(_:)`` from
/// a Swift task (argument encoding, thread hand-off, reply parsing, result mapping).
enum DispatchBenchmark {
    /// One measured mode.
    public struct Measurement: Sendable {
        /// What was measured.
        public var name: String
        /// Calls made (after warm-up).
        public var iterations: Int
        /// Mean wall time per call in microseconds.
        public var microsecondsPerCall: Double
        /// Median of per-batch means (batches of 1/20 of the calls), in microseconds: steadier on a busy machine.
        public var medianBatchMicroseconds: Double
        /// Fastest batch mean, in microseconds.
        public var minimumBatchMicroseconds: Double = 0
        /// Slowest batch mean, in microseconds.
        public var maximumBatchMicroseconds: Double = 0
        /// Median of per-batch CPU time of the measuring thread per call, in microseconds (nil when not
        /// measured): on a shared machine wall time mostly says how often the thread was preempted. For
        /// the worker rows it is the host side only.
        public var medianBatchCPUMicroseconds: Double? = nil
    }

    /// Runs the measurements against `skillID` of the plugin at `pluginPath` with `arguments`.
    /// - Parameter swiftTwinPath: a second plugin with the same skill written with SkillSDK (e.g.
    ///   `libBenchEchoSkill.so`): its in-process invoke is measured too, right after the first plugin's, so
    ///   the two rows show what the SDK adds to a call.
    /// - Throws: ``HostError`` when the plugin cannot be loaded or a call fails.
    public static func run(
        pluginPath: String, pluginID: String, skillID: String, arguments: JSONValue = [:], workerExecutable: String,
        iterations: Int = 20_000, swiftTwinPath: String? = nil
    ) async throws(HostError) -> [Measurement] {
        let argumentBytes = arguments.serializedBytes()
        let warmUp = max(iterations / 10, 100)

        // 0. The floor: a direct Swift call doing what the echo skill does (copy the argument bytes).
        let direct = await BlockingThread.runDetached {
            time("direct Swift call", iterations: iterations, warmUp: warmUp) {
                blackHole(echo(argumentBytes))
            }
        }

        // 1. In process: the ABI crossing plus the copy of the result.
        let library = try PluginLibrary.load(path: pluginPath)
        let context = PluginCallContext(callID: "bench", dataDirectory: "/tmp", log: { _, _ in })
        let inProcess = await BlockingThread.runDetached {
            time("in-process invoke", iterations: iterations, warmUp: warmUp) {
                _ = library.invoke(skillID: skillID, arguments: argumentBytes, context: context)
            }
        }
        var swiftTwin: [Measurement] = []
        if let swiftTwinPath {
            let twin = try PluginLibrary.load(path: swiftTwinPath)
            let probe = twin.invoke(skillID: skillID, arguments: argumentBytes, context: context)
            guard probe.status == 0 else {
                throw HostError(
                    .io, "benchmark: \(swiftTwinPath) answered \(skillID) with status \(probe.status): "
                        + String(decoding: probe.bytes, as: UTF8.self))
            }
            swiftTwin.append(await BlockingThread.runDetached {
                time("in-process invoke, Swift SDK skill", iterations: iterations, warmUp: warmUp) {
                    _ = twin.invoke(skillID: skillID, arguments: argumentBytes, context: context)
                }
            })
            // The twin's `<skill>_async`, when it has one: the same skill with an async `execute` (the SDK's
            // Task.immediate path; `bench.echo` itself is a SynchronousSkill).
            let asyncID = skillID + "_async"
            if twin.invoke(skillID: asyncID, arguments: argumentBytes, context: context).status == 0 {
                swiftTwin.append(await BlockingThread.runDetached {
                    time("in-process invoke, Swift SDK skill, async", iterations: iterations, warmUp: warmUp) {
                        _ = twin.invoke(skillID: asyncID, arguments: argumentBytes, context: context)
                    }
                })
            }
        }

        // 2. One frame round trip, measured on the thread that owns the pipes; first, how long a worker takes
        //    from spawn to ready (20 starts).
        let startUp = try await BlockingThread.runDetached { () -> Result<Measurement, HostError> in
            var samples: [Double] = []
            for _ in 0..<20 {
                let start = Posix.monotonicNanoseconds()
                do {
                    let worker = try WorkerProcess.launch(
                        executable: workerExecutable, pluginPath: pluginPath, limits: .defaults, startupTimeout: 10)
                    samples.append(Double(Posix.monotonicNanoseconds() - start) / 1e3)
                    worker.stop()
                } catch {
                    return .failure(HostError(.io, "benchmark: cannot start a worker for \(pluginPath): \(error)"))
                }
            }
            return .success(Measurement(
                name: "worker start (spawn to ready)", iterations: samples.count,
                microsecondsPerCall: samples.reduce(0, +) / Double(samples.count), medianBatchMicroseconds: median(samples),
                minimumBatchMicroseconds: samples.min() ?? 0, maximumBatchMicroseconds: samples.max() ?? 0))
        }.get()
        let worker: WorkerProcess
        do {
            worker = try WorkerProcess.launch(
                executable: workerExecutable, pluginPath: pluginPath, limits: .defaults, startupTimeout: 10)
        } catch {
            throw HostError(.io, "benchmark: cannot start a worker for \(pluginPath): \(error)")
        }
        let request = WorkerCallRequest(
            skillID: skillID, callID: "bench", sessionID: "", idempotencyKey: "", dataDirectory: "/tmp",
            deadlineUnixMilliseconds: 0, configurationJSON: Array("{}".utf8), argumentsJSON: argumentBytes, context: [:])
        // 2a. What both sides of a round trip compute, on one thread, with no transport: encode the request,
        //     decode it, serve it (the worker's invoke), encode the reply, decode it. The round trip minus
        //     this is what crossing processes costs.
        let work = await BlockingThread.runDetached {
            var requestBuffer: [UInt8] = []
            var replyBuffer: [UInt8] = []
            var memo = WorkerServer.CallMemo(label: library.label)
            return time("worker call work, no transport", iterations: iterations, warmUp: warmUp) {
                requestBuffer = request.encodedFrame(reusing: requestBuffer)
                let served = requestBuffer.withUnsafeBytes { frame in
                    (try? WorkerCallRequest.decode(slotFrame: frame).get()).map {
                        WorkerServer.serve($0, with: library, memo: &memo)
                    }
                }
                replyBuffer = (served ?? WorkerCallReply(status: -2, json: [])).encodedFrame(reusing: replyBuffer)
                blackHole(replyBuffer.withUnsafeBytes { try? WorkerCallReply.decode(slotFrame: $0).get() })
            }
        }
        let roundTrip = await BlockingThread.runDetached {
            time("worker frame round trip", iterations: iterations, warmUp: warmUp) {
                _ = worker.perform(request, deadline: Posix.monotonicNanoseconds() + 10_000_000_000)
            }
        }
        await BlockingThread.runDetached { worker.stop() }

        // 3. The executor as the host uses it.
        let executor = WorkerPoolExecutor(
            WorkerPoolConfiguration(
                pluginID: pluginID, pluginPath: pluginPath, workerExecutable: workerExecutable, maxWorkers: 1))
        let call = SkillCall(
            pluginID: pluginID, pluginPath: pluginPath, skillID: skillID, arguments: arguments, callID: "bench",
            timeout: 10, dataDirectory: "/tmp")
        var batches: [Double] = []
        let batchSize = max(iterations / 20, 1)
        for _ in 0..<warmUp { _ = try await executor.execute(call) }
        let start = Posix.monotonicNanoseconds()
        for _ in 0..<(iterations / batchSize) {
            let batchStart = Posix.monotonicNanoseconds()
            for _ in 0..<batchSize { _ = try await executor.execute(call) }
            batches.append(Double(Posix.monotonicNanoseconds() - batchStart) / 1e3 / Double(batchSize))
        }
        let total = Double(Posix.monotonicNanoseconds() - start) / 1e3
        await executor.shutdown()
        let executed = Measurement(
            name: "worker executor execute", iterations: batches.count * batchSize,
            microsecondsPerCall: total / Double(batches.count * batchSize), medianBatchMicroseconds: median(batches),
            minimumBatchMicroseconds: batches.min() ?? 0, maximumBatchMicroseconds: batches.max() ?? 0)
        return [direct, inProcess] + swiftTwin + [work, roundTrip, executed, startUp]
    }

    private static func time(_ name: String, iterations: Int, warmUp: Int, _ body: () -> Void) -> Measurement {
        for _ in 0..<warmUp { body() }
        let batchSize = max(iterations / 20, 1)
        var batches: [Double] = []
        var cpuBatches: [Double] = []
        let start = Posix.monotonicNanoseconds()
        for _ in 0..<(iterations / batchSize) {
            let batchStart = Posix.monotonicNanoseconds()
            let cpuStart = Posix.threadCPUNanoseconds()
            for _ in 0..<batchSize { body() }
            cpuBatches.append(Double(Posix.threadCPUNanoseconds() - cpuStart) / 1e3 / Double(batchSize))
            batches.append(Double(Posix.monotonicNanoseconds() - batchStart) / 1e3 / Double(batchSize))
        }
        let total = Double(Posix.monotonicNanoseconds() - start) / 1e3
        let count = batches.count * batchSize
        return Measurement(
            name: name, iterations: count, microsecondsPerCall: total / Double(count),
            medianBatchMicroseconds: median(batches), minimumBatchMicroseconds: batches.min() ?? 0,
            maximumBatchMicroseconds: batches.max() ?? 0, medianBatchCPUMicroseconds: median(cpuBatches))
    }

    /// What the echo skill does, as a plain Swift function.
    @inline(never)
    private static func echo(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// Keeps a value alive so the optimizer cannot drop the work that made it.
    @inline(never)
    private static func blackHole<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
