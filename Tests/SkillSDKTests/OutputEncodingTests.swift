import CSkillABI
import Foundation
import SkillJSON
import SkillSDK
import Testing

/// A skill's `Encodable` output goes to the host as bytes written straight from the value (no JSON tree);
/// these tests hold that text to what the tree encoder writes, for every shape `Encodable` can produce,
/// including the ones only the tree can follow (the SDK falls back to it).
@Suite struct OutputEncodingTests {
    let host = TestHost()

    /// What the host receives for `sample`, and what `JSONValueEncoder` + `serialized()` make of it.
    func texts(_ sample: String) async throws -> (received: String, expected: String) {
        let call = await host.call(OutputSamples.descriptor, "outtest.emit", #"{"sample":"\#(sample)"}"#)
        #expect(call.status == SKILL_STATUS_OK, "\(sample): \(call.text)")
        let value = try #require(OutputSamples.all[sample])
        return (call.text, try JSONValueEncoder().encode(Emit.Output(value: value)).serialized())
    }

    @Test(arguments: OutputSamples.all.keys.sorted())
    func hostReceivesExactlyWhatTheTreeEncoderWrites(sample: String) async throws {
        let (received, expected) = try await texts(sample)
        #expect(received == expected, "sample \(sample)")
    }

    @Test func shapesOnlyATreeFollowsStillComeOutRight() async throws {
        // The fallback: the stream gives up, the tree writes, the host sees the tree's text.
        #expect(try await texts("rewrites").received == #"{"a":3,"b":1,"c":["x"]}"#)
        #expect(try await texts("late-nested-write").received == #"{"a":{"x":1,"y":2},"b":true}"#)
        #expect(try await texts("single-twice").received == "2")
    }

    @Test func valuesJSONCannotHoldAreAnInternalErrorNamingThePath() async {
        let call = await host.call(OutputSamples.descriptor, "outtest.emit", #"{"sample":"nested-nan"}"#)
        #expect(call.status == SKILL_STATUS_INTERNAL)
        let message = call.json?["message"]?.stringValue ?? ""
        #expect(message.contains("cannot be encoded as JSON"), "\(message)")
        #expect(message.contains("inner"), "the coding path names the member: \(message)")
        let big = await host.call(OutputSamples.descriptor, "outtest.emit", #"{"sample":"too-big"}"#)
        #expect(big.status == SKILL_STATUS_INTERNAL)
    }

    @Test func aSkillsOwnEncodeOutputIsStillUsed() async {
        let call = await host.call(OutputSamples.descriptor, "outtest.custom")
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.text == #"{"custom":true}"#)
    }

    @Test func aSkillThatDoesNotSuspendRunsOnTheInvokingThread() async {
        let call = await host.call(OutputSamples.descriptor, "outtest.thread")
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["thread"]?.stringValue == call.invokeThread)
    }

    @Test func aSkillThatSuspendsFinishesOnThePoolWithItsOutput() async {
        let call = await host.call(OutputSamples.descriptor, "outtest.suspend")
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.text == #"{"slept":true,"note":"a\"b"}"#)
    }

    @Test func manySkillsAreFoundByHashingAndFewByComparingInPlace() async {
        let few = await host.call(OutputSamples.descriptor, "outtest.thread")
        #expect(few.status == SKILL_STATUS_OK)
        let many = await host.call(ManySkills.descriptor, "many.s17")
        #expect(many.text == #"{"index":17}"#)
        let first = await host.call(ManySkills.descriptor, "many.s0")
        #expect(first.text == #"{"index":0}"#)
        let missing = await host.call(ManySkills.descriptor, "many.s99")
        #expect(missing.status == SKILL_STATUS_NOT_FOUND)
        #expect(missing.json?["message"]?.stringValue?.hasPrefix(#"no skill "many.s99" in this plugin"#) == true)
        let prefix = await host.call(OutputSamples.descriptor, "outtest.thr")
        #expect(prefix.status == SKILL_STATUS_NOT_FOUND)
    }
}

// MARK: - Skills

/// Returns the sample named in its arguments.
struct Emit: Skill {
    struct Arguments: Decodable { var sample: String }
    /// Encodes the sample in its own place (the encoder is passed through).
    struct Output: Encodable, @unchecked Sendable {
        var value: any Encodable
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
    let name = "emit"
    let title = "Emit"
    let description = "Returns one of the test samples."
    let parameters = ParameterSchema.object(["sample": .string("sample name")], required: ["sample"])

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        guard let value = OutputSamples.all[arguments.sample] ?? OutputSamples.failing[arguments.sample] else {
            throw SkillError.invalidArguments(field: "/sample", message: "no sample \(arguments.sample)")
        }
        return Output(value: value)
    }
}

/// An `Encodable` output with an `encodeOutput` of its own.
struct Custom: Skill {
    struct Output: Encodable { var ignored = 1 }
    let name = "custom"
    let title = "Custom"
    let description = "Encodes its output its own way."
    let parameters = ParameterSchema.object([:], required: [])

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> Output { Output() }
    static func encodeOutput(_ output: Output) throws -> JSONValue { ["custom": true] }
}

/// Returns the thread its body ran on, without suspending.
struct WhichThread: Skill {
    struct Output: Encodable { var thread: String }
    let name = "thread"
    let title = "Thread"
    let description = "Names the thread it runs on."
    let parameters = ParameterSchema.object([:], required: [])

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> Output {
        Output(thread: "\(pthread_self())")
    }
}

/// Suspends before it returns.
struct Suspend: Skill {
    struct Output: Encodable {
        var slept: Bool
        var note: String
    }
    let name = "suspend"
    let title = "Suspend"
    let description = "Sleeps briefly, then returns."
    let parameters = ParameterSchema.object([:], required: [])

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> Output {
        try await Task.sleep(for: .milliseconds(5))
        return Output(slept: true, note: "a\"b")
    }
}

/// Returns its own index.
struct Numbered: Skill {
    struct Output: Encodable { var index: Int }
    let index: Int
    var name: String { "s\(index)" }
    let title = "Numbered"
    let description = "Returns its index."
    let parameters = ParameterSchema.object([:], required: [])

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> Output { Output(index: index) }
}

enum ManySkills {
    static let plugin = SkillPlugin(
        id: "many", name: "Many", version: "0.1.0", description: "Twenty skills.",
        skills: (0..<20).map { Numbered(index: $0) })

    static var descriptor: UnsafePointer<skill_plugin_descriptor> {
        plugin.export(1, 0, nil)!.assumingMemoryBound(to: skill_plugin_descriptor.self)
    }
}

// MARK: - Samples

enum OutputSamples {
    static let plugin = SkillPlugin(
        id: "outtest", name: "Output test", version: "0.1.0", description: "Output encoding samples.",
        skills: [Emit(), Custom(), WhichThread(), Suspend()])

    static var descriptor: UnsafePointer<skill_plugin_descriptor> {
        plugin.export(1, 0, nil)!.assumingMemoryBound(to: skill_plugin_descriptor.self)
    }

    struct Event: Encodable {
        enum Kind: String, Encodable { case meeting, workout }
        struct Place: Encodable {
            var name: String
            var floor: Int8?
        }
        var title = "Run \"fast\"\n\tnow \u{01} é 😀 \\"
        var kind = Kind.workout
        var minutes = 45
        var ratio = 0.5
        var tags = ["a", "", "b"]
        var place: Place? = Place(name: "Park", floor: nil)
        var attendees = [Place(name: "Ada", floor: 3), Place(name: "Bo", floor: -128)]
        var reminders: [String: UInt16] = ["early": 10]
        var done = false
        var nothing: String? = nil
    }

    struct Numbers: Encodable {
        var int = [Int.min, Int.max, 0, -1]
        var int64 = [Int64.min, Int64.max]
        var doubles = [-0.0, 0.0, 1e15, 1e16, -1e15, 0.1, 1.5e-7, 123.0, 2.5, -3.75, Double.greatestFiniteMagnitude]
        var float: Float = 0.1
        var floats: [Float] = [1, 0.25]
        var small: (Int8, Int16, Int32, UInt8, UInt16, UInt32) = (.min, .min, .min, .max, .max, .max)
        var unsigned: UInt64 = UInt64(Int64.max)
        var unsignedWord: UInt = 7

        enum CodingKeys: String, CodingKey {
            case int, int64, doubles, float, floats, small, unsigned, unsignedWord, i8, i16, i32, u8, u16, u32
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(int, forKey: .int)
            try container.encode(int64, forKey: .int64)
            try container.encode(doubles, forKey: .doubles)
            try container.encode(float, forKey: .float)
            try container.encode(floats, forKey: .floats)
            try container.encode(small.0, forKey: .i8)
            try container.encode(small.1, forKey: .i16)
            try container.encode(small.2, forKey: .i32)
            try container.encode(small.3, forKey: .u8)
            try container.encode(small.4, forKey: .u16)
            try container.encode(small.5, forKey: .u32)
            try container.encode(unsigned, forKey: .unsigned)
            try container.encode(unsignedWord, forKey: .unsignedWord)
        }
    }

    struct Empties: Encodable {
        struct Nothing: Encodable {}
        /// Asks for no container at all: the member reads as null.
        struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
        var object = Nothing()
        var array: [Int] = []
        var nested: [[String]] = [[], ["x"], []]
        var silent = Silent()
        var silentElements = [Silent(), Silent()]
        var map: [String: Int] = [:]
    }

    /// Nested and unkeyed containers asked for directly, a super encoder, and an unkeyed count.
    struct Containers: Encodable {
        enum Key: String, CodingKey { case point, list, meta, count }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var point = container.nestedContainer(keyedBy: Key.self, forKey: .point)
            try point.encode(1, forKey: .count)
            try point.encodeNil(forKey: .meta)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("a")
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: Key.self)
            try inner.encode(true, forKey: .meta)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode(2.5)
            try list.encode(list.count)
            try Event.Place(name: "up", floor: 1).encode(to: container.superEncoder())
            try "meta".encode(to: container.superEncoder(forKey: .meta))
        }
    }

    /// Writes to a nested container after a later member was started.
    struct LateNestedWrite: Encodable {
        enum Key: String, CodingKey { case a, b, x, y }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var a = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            try a.encode(1, forKey: .x)
            try container.encode(true, forKey: .b)
            try a.encode(2, forKey: .y)
        }
    }

    /// Encodes two values into one single-value container (the last wins).
    struct SingleTwice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }

    /// Many members, then one of the first again: the duplicate check past its linear range.
    struct ManyMembers: Encodable {
        var duplicate: Bool
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for index in 0..<40 { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
            if duplicate { try container.encode("again", forKey: Key(stringValue: "k3")) }
        }
    }

    struct NestedNaN: Encodable {
        struct Inner: Encodable { var value = Double.nan }
        var ok = 1
        var inner = Inner()
    }

    nonisolated(unsafe) static let all: [String: any Encodable] = [
        "event": Event(),
        "numbers": Numbers(),
        "empties": Empties(),
        "containers": Containers(),
        "top-array": [[1, 2], [3]],
        "top-string": "plain \"quoted\"",
        "top-number": 42.0,
        "top-bool": true,
        "top-null": Int?.none as Int?,
        "map": Dictionary(uniqueKeysWithValues: (0..<30).map { ("key\($0)", $0) }),
        "many-members": ManyMembers(duplicate: false),
        "many-members-duplicate": ManyMembers(duplicate: true),
        "rewrites": JSONCodingTests.Rewrites(),
        "late-nested-write": LateNestedWrite(),
        "single-twice": SingleTwice(),
    ]

    nonisolated(unsafe) static let failing: [String: any Encodable] = [
        "nested-nan": NestedNaN(),
        "too-big": ["n": UInt64.max],
    ]
}

