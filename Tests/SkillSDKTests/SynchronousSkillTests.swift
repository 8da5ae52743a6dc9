import CSkillABI
import Foundation
import SkillJSON
import SkillSDK
import Synchronization
import Testing

/// Skills written as ``SynchronousSkill``: the SDK runs `run` on the host's thread, with no task.
enum SynchronousTestSkills {
    /// Greets, logs, and reports the thread it ran on.
    struct Greet: SynchronousSkill {
        struct Arguments: Decodable {
            var name: String
            var times: Int?
        }
        struct Output: Encodable {
            var greeting: String
            var callID: String
            var thread: String
            var inTask: Bool
        }
        let name = "greet"
        let title = "Greet"
        let description = "Greets someone by name. Not for farewells."
        let parameters = ParameterSchema.object(
            ["name": .string("Who to greet", minLength: 1), "times": .integer("Repeat count", minimum: 1)],
            required: ["name"])

        func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
            context.log("greeting \(arguments.name)", level: .warning)
            let greeting = Array(repeating: "Hello, \(arguments.name)!", count: arguments.times ?? 1)
                .joined(separator: " ")
            return Output(
                greeting: greeting, callID: context.callID, thread: TestHost.threadName(),
                inTask: withUnsafeCurrentTask { $0 != nil })
        }
    }

    /// Spins until the context says stop, for at most ten seconds.
    struct Spin: SynchronousSkill {
        let name = "spin"
        let title = "Spin"
        let description = "Busy-waits until cancelled or past its deadline."
        let parameters = ParameterSchema.object([:], required: [])

        func run(_ arguments: JSONValue, context: SkillContext) throws -> JSONValue {
            let end = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < end {
                try context.checkCancellation()
                usleep(500)
            }
            return "spun"
        }
    }

    /// Throws the error its `kind` argument names.
    struct Fail: SynchronousSkill {
        struct Arguments: Decodable { var kind: String }
        let name = "fail"
        let title = "Fail"
        let description = "Always fails, in the way it is asked to."
        let parameters = ParameterSchema.object(["kind": .string("skill, other or cancellation")], required: ["kind"])

        func run(_ arguments: Arguments, context: SkillContext) throws -> JSONValue {
            switch arguments.kind {
            case "skill": throw SkillError.permissionDenied(message: "no access", remedy: "grant access")
            case "cancellation": throw CancellationError()
            default: throw TestSkills.OddError()
            }
        }
    }

    /// Logs from a thread of its own and tries the session from a task; keeps its context for later.
    struct Elsewhere: SynchronousSkill {
        let name = "elsewhere"
        let title = "Elsewhere"
        let description = "Uses its context from other threads."
        let parameters = ParameterSchema.object([:], required: [])

        /// The context of the last call, for looking at it after the call has returned.
        static let lastContext = Mutex<SkillContext?>(nil)

        func run(_ arguments: JSONValue, context: SkillContext) throws -> JSONValue {
            Elsewhere.lastContext.withLock { $0 = context }
            final class Seen: @unchecked Sendable {
                var storeError = ""
                var read: JSONValue?
            }
            let seen = Seen()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                context.log("from another thread")
                Task.detached {
                    seen.read = await context.value(forKey: "counter")
                    do { try await context.set(1, forKey: "counter") } catch { seen.storeError = "\(error)" }
                    done.signal()
                }
            }
            done.wait()
            let (storeError, read) = (seen.storeError, seen.read)
            return ["store_error": .string(storeError), "read": read ?? .null, "cancelled": .bool(context.isCancelled)]
        }
    }

    /// An async skill that keeps its context without reading it, for looking at it after the call.
    struct KeepAsync: Skill {
        let name = "keep_async"
        let title = "Keep (async)"
        let description = "Keeps its context."
        let parameters = ParameterSchema.object([:], required: [])

        static let lastContext = Mutex<SkillContext?>(nil)

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue {
            KeepAsync.lastContext.withLock { $0 = context }
            return [:]
        }
    }

    static let plugin = SkillPlugin(
        id: "synctest", name: "Synchronous test", version: "0.1.0",
        description: "Synchronous skills for the SDK's tests.",
        skills: [Greet(), Spin(), Fail(), Elsewhere(), KeepAsync()])

    static var descriptor: UnsafePointer<skill_plugin_descriptor> {
        plugin.export(1, 0, nil)!.assumingMemoryBound(to: skill_plugin_descriptor.self)
    }
}

@Suite struct SynchronousSkillTests {
    let host = TestHost()
    let descriptor = SynchronousTestSkills.descriptor

    @Test func runsOnTheInvokingThreadAndEncodesItsOutput() async {
        let call = await host.call(descriptor, "synctest.greet", #"{"name":"Ada","times":2}"#)
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["greeting"] == "Hello, Ada! Hello, Ada!")
        #expect(call.json?["callID"] == "call-1")
        #expect(call.json?["thread"]?.stringValue == call.invokeThread, "run ran inside invoke")
        #expect(call.json?["inTask"] == false, "no task around run")
        #expect(host.logs.map(\.message) == ["greeting Ada"])
        #expect(host.logs.map(\.level) == [SKILL_LOG_WARNING])
        #expect(host.callbackThreads == [call.invokeThread])
    }

    @Test func badArgumentsAreInvalidNamingTheField() async {
        let missing = await host.call(descriptor, "synctest.greet", #"{"times":2}"#)
        #expect(missing.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(missing.json?["field"] == "/name")
        let wrongType = await host.call(descriptor, "synctest.greet", #"{"name":"Ada","times":"two"}"#)
        #expect(wrongType.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(wrongType.json?["message"] == "/times: expected an integer, found string")
        let notJSON = await host.call(descriptor, "synctest.greet", #"{"name": }"#)
        #expect(notJSON.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(notJSON.json?["message"]?.stringValue?.contains("line 1, column 10") == true)
    }

    @Test func thrownErrorsBecomeTheirStatuses() async {
        let refused = await host.call(descriptor, "synctest.fail", #"{"kind":"skill"}"#)
        #expect(refused.status == SKILL_STATUS_PERMISSION_DENIED)
        #expect(refused.json == ["message": "no access", "remedy": "grant access"])
        let other = await host.call(descriptor, "synctest.fail", #"{"kind":"other"}"#)
        #expect(other.status == SKILL_STATUS_FAILED)
        #expect(other.json == ["message": "the disk is on fire"])
        let cancelled = await host.call(descriptor, "synctest.fail", #"{"kind":"cancellation"}"#)
        #expect(cancelled.status == SKILL_STATUS_CANCELLED)
    }

    @Test func hostCancellationStopsAPollingSkill() async {
        let start = ContinuousClock.now
        let call = await host.call(descriptor, "synctest.spin", cancelAfter: .milliseconds(50))
        #expect(call.status == SKILL_STATUS_CANCELLED)
        #expect(call.json?["message"] == "the call was cancelled")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func passedDeadlineIsATimeout() async {
        let call = await host.call(
            descriptor, "synctest.spin", deadlineUnixMilliseconds: currentUnixMilliseconds() + 50)
        #expect(call.status == SKILL_STATUS_TIMEOUT)
        #expect(call.json?["message"] == "the call passed its deadline")
    }

    @Test func otherThreadsLogWhenRunReturnsAndCannotReachTheSession() async {
        let host = TestHost(values: ["counter": "41"])
        let call = await host.call(descriptor, "synctest.elsewhere")
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["read"] == .null, "session values are not read from another thread")
        #expect(call.json?["store_error"]?.stringValue?.contains("cannot store \"counter\"") == true)
        #expect(call.json?["cancelled"] == false)
        #expect(host.value("counter") == "41")
        #expect(host.logs.map(\.message) == ["from another thread"])
        #expect(host.callbackThreads == [call.invokeThread], "the host's log callback ran on the call thread")
    }

    @Test func contextAfterTheCallReadsAsEndedAndDropsLines() async throws {
        _ = await host.call(descriptor, "synctest.elsewhere")
        let context = try #require(SynchronousTestSkills.Elsewhere.lastContext.withLock { $0 })
        #expect(context.isCancelled)
        context.log("too late")
        #expect(await context.value(forKey: "counter") == nil)
        await #expect(throws: SkillError.self) { try await context.set(2, forKey: "counter") }
        #expect(!host.logs.map(\.message).contains("too late"))
    }

    /// The context's strings stay in the host's C context until read; a context that outlives its call
    /// (never read during it) still has them after the host has freed its own.
    @Test(arguments: ["synctest.elsewhere", "synctest.keep_async"])
    func keptContextKeepsTheCallsStrings(skillID: String) async throws {
        _ = await host.call(descriptor, skillID, idempotencyKey: "key-7", dataDirectory: "/tmp/kept-data")
        let kept =
            skillID == "synctest.elsewhere"
            ? SynchronousTestSkills.Elsewhere.lastContext.withLock { $0 }
            : SynchronousTestSkills.KeepAsync.lastContext.withLock { $0 }
        let context = try #require(kept)
        #expect(context.callID == "call-1")
        #expect(context.sessionID == "session-1")
        #expect(context.idempotencyKey == "key-7")
        #expect(context.dataDirectory == "/tmp/kept-data")
    }

    @Test func contextFromAHostWithoutCallbacksIsNotCalledBack() async {
        let call = await host.call(descriptor, "synctest.greet", #"{"name":"Ada"}"#, contextSize: 72)
        #expect(call.status == SKILL_STATUS_OK)
        #expect(host.callbackThreads.isEmpty)
    }

    @Test func executeStillWorksWithoutAHost() async throws {
        let context = SkillContext(callID: "local")
        let output = try await SynchronousTestSkills.Greet().execute(.init(name: "Bo", times: nil), context: context)
        #expect(output.greeting == "Hello, Bo!")
        #expect(output.callID == "local")
        #expect(output.inTask, "called through execute, from a task")
        #expect(context.loggedLines.map(\.message) == ["greeting Bo"])
    }

    @Test func manyConcurrentCallsAllSucceed() async {
        nonisolated(unsafe) let shared = descriptor
        let host = host
        let results = await withTaskGroup(of: JSONValue?.self) { group in
            for index in 0..<16 {
                group.addTask { await host.call(shared, "synctest.greet", #"{"name":"n\#(index)"}"#).json?["greeting"] }
            }
            return await group.reduce(into: Set<JSONValue?>()) { $0.insert($1) }
        }
        #expect(results.count == 16)
    }
}
