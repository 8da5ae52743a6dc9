// AttackSkill: the attacker's suite (issue #34) as a Swift plugin: the attempts of ../attack_attempts.c, made from
// a worker that runs the Swift runtime and the SDK, with the same skills as the C plugin (attack_plugin.c) under
// the plugin id "swiftattack". Built as libAttackSkill.so by `swift build`; only the tests install it.
import AttackAttempts
import SkillSDK

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    attackPlugin.export(major, minor, host)
}

let attackPlugin = SkillPlugin(
    id: "swiftattack", name: "Attack (Swift)", version: "1.0.0",
    description: "Tries every way out of its sandbox from a Swift plugin, for the attacker's suite.",
    skills: [RunAttempt(), RunAll(), ListAttempts()])
    .declaring(.none)

/// What one attempt reported.
struct Outcome: Encodable, Sendable {
    var attempt: String
    var threat: String
    var escaped: Bool
    var errno: Int32
    var detail: String
}

/// The test's description of the world, as C strings the attempts read; freed after the call.
final class World {
    private var strings: [UnsafeMutablePointer<CChar>] = []
    var arguments = attack_args()

    init(_ json: JSONValue, dataDirectory: String) {
        func text(_ key: String) -> UnsafePointer<CChar>? {
            guard let value = json[key]?.stringValue else { return nil }
            return keep(value)
        }
        arguments.home = text("home")
        arguments.other_data = text("other_data")
        arguments.tmp_file = text("tmp_file")
        arguments.data_dir = keep(dataDirectory)
        arguments.port = Int32(json["port"]?.intValue ?? 0)
        arguments.udp_port = Int32(json["udp_port"]?.intValue ?? 0)
        arguments.unix_path = text("unix_path")
        arguments.abstract_name = text("abstract_name")
        arguments.secret = text("secret")
        arguments.victim = pid_t(json["victim"]?.intValue ?? 0)
        let targets = (json["targets"]?.arrayValue ?? []).compactMap(\.intValue).prefix(16).map { pid_t($0) }
        withUnsafeMutableBytes(of: &arguments.targets) { raw in
            let slots = raw.bindMemory(to: pid_t.self)
            for (index, pid) in targets.enumerated() { slots[index] = pid }
        }
        arguments.target_count = Int32(targets.count)
        arguments.inject = text("inject")
        arguments.bound = Int(json["bound"]?.intValue ?? 0)
    }

    private func keep(_ value: String) -> UnsafePointer<CChar> {
        let copy = strdup(value)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    deinit { strings.forEach { free($0) } }

    /// Runs `attempt` against this world.
    func run(_ attempt: attack_attempt) -> Outcome {
        var outcome = attack_outcome()
        withUnsafePointer(to: &arguments) { world in attempt.run(world, &outcome) }
        let detail = withUnsafeBytes(of: &outcome.detail) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        return Outcome(
            attempt: String(cString: attempt.name), threat: String(cString: attempt.threat),
            escaped: outcome.escaped != 0, errno: outcome.code, detail: detail)
    }
}

/// Every attempt of the C table.
var allAttempts: [attack_attempt] { (0..<attack_attempt_count).compactMap { attack_at($0)?.pointee } }

struct RunAttempt: SynchronousSkill {
    let name = "run"
    let title = "run"
    let description = "Makes one attempt."
    let parameters: JSONValue = ["type": "object", "properties": ["attempt": ["type": "string"]], "required": ["attempt"]]
    let timeout = 60.0

    func run(_ arguments: JSONValue, context: SkillContext) throws -> Outcome {
        guard let name = arguments["attempt"]?.stringValue, let attempt = attack_find(name) else {
            throw SkillError.invalidArguments(field: "/attempt", message: "no such attempt", remedy: "see attack.list")
        }
        return World(arguments, dataDirectory: context.dataDirectory).run(attempt.pointee)
    }
}

struct RunAll: SynchronousSkill {
    struct Output: Encodable, Sendable { var results: [Outcome] }
    let name = "all"
    let title = "all"
    let description = "Makes every attempt but the resource ones."
    let parameters: JSONValue = ["type": "object"]
    let timeout = 60.0

    func run(_ arguments: JSONValue, context: SkillContext) throws -> Output {
        let world = World(arguments, dataDirectory: context.dataDirectory)
        return Output(results: allAttempts.filter { $0.alone == 0 }.map(world.run))
    }
}

struct ListAttempts: SynchronousSkill {
    struct Entry: Encodable, Sendable { var attempt: String; var threat: String; var alone: Bool }
    struct Output: Encodable, Sendable { var attempts: [Entry] }
    let name = "list"
    let title = "list"
    let description = "Lists the attempts."
    let parameters = ParameterSchema.object([:], required: [])

    func run(_ arguments: JSONValue, context: SkillContext) throws -> Output {
        Output(attempts: allAttempts.map {
            Entry(attempt: String(cString: $0.name), threat: String(cString: $0.threat), alone: $0.alone != 0)
        })
    }
}
