import CSkillABI
import Foundation
import SkillJSON
import SkillSDK
import Testing

@Suite struct BridgeTests {
    let host = TestHost()
    let descriptor = TestSkills.descriptor

    @Test func descriptorHasMagicVersionAndSize() {
        #expect(descriptor.pointee.magic == SKILL_ABI_MAGIC)
        #expect(descriptor.pointee.abi_major == 1)
        #expect(descriptor.pointee.struct_size == 48)
        #expect(descriptor.pointee.invoke != nil && descriptor.pointee.free_result != nil)
        #expect(TestSkills.plugin.export(1, 7, nil) == UnsafeRawPointer(descriptor), "same descriptor every time")
    }

    @Test func anotherMajorGetsNoDescriptor() {
        #expect(TestSkills.plugin.export(2, 0, nil) == nil)
        #expect(TestSkills.plugin.export(0, 9, nil) == nil)
    }

    @Test func successReturnsTheEncodedOutput() async {
        let call = await host.call(descriptor, "sdktest.greet", #"{"name":"Ada","times":2}"#)
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json == ["greeting": "Hello, Ada! Hello, Ada!", "callID": "call-1"])
        #expect(call.text == #"{"greeting":"Hello, Ada! Hello, Ada!","callID":"call-1"}"#)
    }

    @Test func skillErrorBecomesItsStatusWithMessageAndRemedy() async {
        let call = await host.call(descriptor, "sdktest.refuse")
        #expect(call.status == SKILL_STATUS_PERMISSION_DENIED)
        #expect(call.json == ["message": "no access to the calendar", "remedy": "grant access in settings"])
    }

    @Test func otherErrorsAreFailuresWithTheirDescription() async {
        let call = await host.call(descriptor, "sdktest.crash")
        #expect(call.status == SKILL_STATUS_FAILED)
        #expect(call.json == ["message": "the disk is on fire"])
    }

    @Test func missingMemberIsAnInvalidArgumentNamingIt() async {
        let call = await host.call(descriptor, "sdktest.greet", #"{"times":2}"#)
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/name")
        #expect(call.json?["message"]?.stringValue?.contains("missing required member \"name\"") == true)
    }

    @Test func wrongTypeIsAnInvalidArgumentNamingTheField() async {
        let call = await host.call(descriptor, "sdktest.greet", #"{"name":"Ada","times":"two"}"#)
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/times")
        #expect(call.json?["message"] == "/times: expected an integer, found string")
    }

    @Test func argumentsThatAreNotJSONAreInvalidWithLineAndColumn() async {
        let call = await host.call(descriptor, "sdktest.greet", #"{"name": }"#)
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "")
        #expect(call.json?["message"]?.stringValue?.contains("line 1, column 10") == true)
    }

    @Test func unknownSkillIsNotFoundAndListsTheSkills() async {
        let call = await host.call(descriptor, "sdktest.nope")
        #expect(call.status == SKILL_STATUS_NOT_FOUND)
        #expect(call.json?["message"]?.stringValue?.contains("sdktest.greet, sdktest.refuse") == true)
    }

    @Test func unencodableOutputIsAnInternalError() async {
        let call = await host.call(descriptor, "sdktest.nan")
        #expect(call.status == SKILL_STATUS_INTERNAL)
        #expect(call.json?["message"]?.stringValue?.contains("cannot be encoded") == true)
    }

    @Test func missingResultSkillIDOrContextNeverCrash() {
        // These return before any task starts, so calling on the test's own thread is safe.
        let invoke = descriptor.pointee.invoke!
        #expect(invoke(descriptor, "sdktest.greet", "{}", 2, nil, nil) == SKILL_STATUS_INTERNAL)
        var result = skill_result()
        result.struct_size = UInt32(MemoryLayout<skill_result>.size)
        #expect(invoke(descriptor, nil, "{}", 2, nil, &result) == SKILL_STATUS_INTERNAL)
        descriptor.pointee.free_result!(descriptor, &result)
        result = skill_result()
        result.struct_size = UInt32(MemoryLayout<skill_result>.size)
        #expect(invoke(descriptor, "sdktest.greet", #"{"name":"x"}"#, 12, nil, &result) == SKILL_STATUS_FAILED)
        let text = String(cString: result.json)
        #expect(text.contains("without a call context"))
        descriptor.pointee.free_result!(descriptor, &result)
        #expect(result.json == nil)
        descriptor.pointee.free_result!(descriptor, &result)  // a NULL json is accepted
    }

    @Test func resultTooSmallForABI1IsRefusedUntouched() {
        var result = skill_result()
        result.struct_size = 8
        #expect(descriptor.pointee.invoke!(descriptor, "sdktest.greet", "{}", 2, nil, &result) == SKILL_STATUS_INTERNAL)
        #expect(result.json == nil)
    }

    @Test func cancellationFlagStopsAPollingSkill() async {
        let clock = ContinuousClock()
        let start = clock.now
        let call = await host.call(descriptor, "sdktest.wait", cancelAfter: .milliseconds(50))
        #expect(call.status == SKILL_STATUS_CANCELLED)
        #expect(call.json?["message"] == "the call was cancelled")
        #expect(clock.now - start < .seconds(5))
    }

    @Test func cancellationFlagCancelsTheTask() async {
        let call = await host.call(descriptor, "sdktest.sleep", cancelAfter: .milliseconds(20))
        #expect(call.status == SKILL_STATUS_CANCELLED)
    }

    @Test func passedDeadlineIsATimeout() async {
        let deadline = currentUnixMilliseconds() + 50
        let call = await host.call(descriptor, "sdktest.sleep", deadlineUnixMilliseconds: deadline)
        #expect(call.status == SKILL_STATUS_TIMEOUT)
        #expect(call.json?["message"] == "the call passed its deadline")
    }

    @Test func contextCallbacksRunOnTheInvokingThread() async {
        let host = TestHost(values: ["counter": "41"])
        let call = await host.call(descriptor, "sdktest.count", configuration: #"{"units":"metric"}"#)
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["counter"] == 42)
        #expect(host.value("counter") == "42")
        #expect(host.logs.map(\.message) == ["counted to 42"])
        #expect(host.logs.map(\.level) == [SKILL_LOG_WARNING])
        #expect(call.json?["session"] == "session-1")
        #expect(call.json?["key"] == "key-1")
        #expect(call.json?["data"] == "/tmp/sdk-test-data")
        #expect(call.json?["config"] == ["units": "metric"])
        #expect(host.callbackThreads.count == 3)
        #expect(host.callbackThreads.allSatisfy { $0 == call.invokeThread })
    }

    @Test func contextFromAHostWithoutCallbacksIsNotCalledBack() async {
        // A context whose struct_size ends before the 1.0 callbacks: the SDK must not read them.
        let call = await host.call(descriptor, "sdktest.count", contextSize: 72)
        #expect(call.status == SKILL_STATUS_FAILED)
        #expect(call.json?["message"]?.stringValue?.contains("cannot store \"counter\"") == true)
        #expect(host.callbackThreads.isEmpty)
    }

    @Test func missingSessionValueReadsAsNil() async {
        let call = await host.call(descriptor, "sdktest.count")
        #expect(call.json?["counter"] == 1)
    }

    @Test func manyConcurrentCallsAllSucceed() async {
        nonisolated(unsafe) let shared = descriptor
        let host = host
        let results = await withTaskGroup(of: JSONValue?.self) { group in
            for index in 0..<16 {
                group.addTask { await host.call(shared, "sdktest.greet", #"{"name":"n\#(index)"}"#).json?["greeting"] }
            }
            return await group.reduce(into: Set<JSONValue?>()) { $0.insert($1) }
        }
        #expect(results.count == 16)
    }
}

/// Milliseconds since the Unix epoch.
func currentUnixMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
