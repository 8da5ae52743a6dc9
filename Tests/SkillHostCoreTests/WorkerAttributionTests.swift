import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `WorkerAttribution`: the worker executor names the worker process that ran a call, also when the call
/// timed out or crashed it (the history's `worker_pid`).
@Suite("Worker attribution")
struct WorkerAttributionTests {
    /// Runs `call` with an attribution bound; returns the outcome and the attributed pid.
    private func attributed(
        _ executor: WorkerPoolExecutor, _ call: SkillCall
    ) async -> (Result<JSONValue, HostError>, Int32?) {
        let attribution = WorkerAttribution()
        let outcome = await WorkerAttribution.$current.withValue(attribution) { () async -> Result<JSONValue, HostError> in
            do throws(HostError) { return .success(try await executor.execute(call)) } catch { return .failure(error) }
        }
        return (outcome, attribution.workerPID)
    }

    @Test("the pid of the worker that answered, then of the one a timeout and a crash stopped")
    func namesTheWorker() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        let (answered, pid) = await attributed(executor, HostilePlugins.call("pid", path: path))
        let reported = try #require(try answered.get()["pid"]?.intValue)
        #expect(pid.map(Int64.init) == reported)
        #expect(pid != getpid())

        // The same worker takes the next call; past its timeout it is stopped, and still named.
        let (timedOut, timedOutPID) = await attributed(executor, HostilePlugins.call("sleep", ["ms": 30_000], path: path, timeout: 0.5))
        if case .failure(let error) = timedOut { #expect(error.kind == .timeout) } else { Issue.record("expected a timeout") }
        #expect(timedOutPID == pid)

        // A fresh worker replaces it; a crash of that one names it too.
        let (crashed, crashedPID) = await attributed(executor, HostilePlugins.call("abort", path: path))
        if case .failure(let error) = crashed { #expect(error.kind == .pluginCrashed) } else { Issue.record("expected a crash") }
        #expect(crashedPID != nil && crashedPID != pid)
        await executor.shutdown()
    }

    @Test("an attribution handed with the call is filled in without a task-local binding, and wins over one")
    func anAttributionHandedWithTheCall() async throws {
        let path = try HostilePlugins.library("hostile")
        let executor = try HostilePlugins.executor(path, maxWorkers: 1)
        var call = HostilePlugins.call("pid", path: path)
        let handed = WorkerAttribution()
        call.attribution = handed
        let bound = WorkerAttribution()
        let answered = await WorkerAttribution.$current.withValue(bound) { () async -> Result<JSONValue, HostError> in
            do throws(HostError) { return .success(try await executor.execute(call)) } catch { return .failure(error) }
        }
        let reported = try #require(try answered.get()["pid"]?.intValue)
        #expect(handed.workerPID.map(Int64.init) == reported)
        #expect(bound.workerPID == nil)
        await executor.shutdown()
    }
}
