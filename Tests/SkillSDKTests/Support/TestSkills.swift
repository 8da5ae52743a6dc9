import CSkillABI
import SkillJSON
import SkillSDK

/// Skills that exercise each path of the SDK's bridge.
enum TestSkills {
    struct Greet: Skill {
        struct Arguments: Decodable {
            var name: String
            var times: Int?
        }
        struct Output: Encodable {
            var greeting: String
            var callID: String
        }
        let name = "greet"
        let title = "Greet"
        let description = "Greets someone by name. Not for farewells."
        let parameters = ParameterSchema.object(
            ["name": .string("Who to greet", minLength: 1), "times": .integer("Repeat count", minimum: 1, maximum: 3)],
            required: ["name"])
        let timeout = 2.5
        let examples = ["greet {name}", "say hello to {name} {times} times"]
        let summary: String? = "Said {greeting}"

        func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
            let greeting = Array(repeating: "Hello, \(arguments.name)!", count: arguments.times ?? 1).joined(
                separator: " ")
            return Output(greeting: greeting, callID: context.callID)
        }
    }

    /// Throws the SkillError given in its arguments.
    struct Refuse: Skill {
        let name = "refuse"
        let title = "Refuse"
        let description = "Always fails with a permission error."
        let parameters = ParameterSchema.object([:], required: [])
        let permission = SkillPermission.dangerous

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue {
            throw SkillError.permissionDenied(message: "no access to the calendar", remedy: "grant access in settings")
        }
    }

    struct OddError: Error, CustomStringConvertible {
        var description: String { "the disk is on fire" }
    }

    struct Crash: Skill {
        let name = "crash"
        let title = "Crash"
        let description = "Throws an error that is not a SkillError."
        let parameters = ParameterSchema.object([:], required: [])

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { throw OddError() }
    }

    /// Waits until cancelled, polling the context.
    struct Wait: Skill {
        let name = "wait"
        let title = "Wait"
        let description = "Waits up to ten seconds, stopping when cancelled."
        let parameters = ParameterSchema.object([:], required: [])

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue {
            for _ in 0..<10_000 {
                try context.checkCancellation()
                try await Task.sleep(for: .milliseconds(1))
            }
            return "done"
        }
    }

    /// Sleeps, relying on Task cancellation only.
    struct Sleep: Skill {
        let name = "sleep"
        let title = "Sleep"
        let description = "Sleeps ten seconds."
        let parameters = ParameterSchema.object([:], required: [])

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue {
            try await Task.sleep(for: .seconds(10))
            return "slept"
        }
    }

    /// Reads "counter" from the session, stores counter + 1, logs, and reports its context.
    struct Count: Skill {
        let name = "count"
        let title = "Count"
        let description = "Increments a session counter."
        let parameters = ParameterSchema.object([:], required: [])
        let permission = SkillPermission.write

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue {
            let current = await context.value(forKey: "counter")?.intValue ?? 0
            try await context.set(.int(current + 1), forKey: "counter")
            context.log("counted to \(current + 1)", level: .warning)
            return [
                "counter": .int(current + 1), "session": .string(context.sessionID),
                "key": .string(context.idempotencyKey), "data": .string(context.dataDirectory),
                "config": context.configuration,
            ]
        }
    }

    /// Returns an output JSON cannot hold.
    struct NotANumber: Skill {
        struct Output: Encodable { var value: Double }
        let name = "nan"
        let title = "NaN"
        let description = "Returns NaN."
        let parameters = ParameterSchema.object([:], required: [])

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> Output { Output(value: .nan) }
    }

    static let all: [any Skill] = [Greet(), Refuse(), Crash(), Wait(), Sleep(), Count(), NotANumber()]

    /// A plugin holding every test skill, exported like a real one.
    static let plugin = SkillPlugin(
        id: "sdktest", name: "SDK test", version: "0.1.0", description: "Skills for the SDK's tests.", skills: all)

    static var descriptor: UnsafePointer<skill_plugin_descriptor> {
        plugin.export(1, 0, nil)!.assumingMemoryBound(to: skill_plugin_descriptor.self)
    }
}
