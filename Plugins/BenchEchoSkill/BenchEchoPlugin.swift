// BenchEchoSkill: the Swift twin of scripts/bench/dispatch_echo.c, for measuring what the SDK adds to a call.
//
// Provides:
//   bench.echo         returns its `text` argument as `{"text": …}` (the C echo returns `{"text":"hello"}` too);
//                      a SynchronousSkill, so the SDK calls it with no Task
//   bench.echo_async   the same written with an async `execute` that does not suspend (the Task.immediate path)
//
// Built as libBenchEchoSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map). Not
// installed by scripts/build-plugins.sh: scripts/bench.sh builds it and `__bench-dispatch --swift-echo`
// compares it with the C echo in the same process.
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    benchEchoPlugin.export(major, minor, host)
}

/// The plugin: the same id and skill id as the C echo, so one benchmark call line serves both.
let benchEchoPlugin = SkillPlugin(
    id: "bench", name: "Bench (Swift)", version: "1.0.0",
    description: "Returns its text argument; used to measure what the Swift SDK adds to a call.",
    skills: [Echo(), AsyncEcho()])
    .declaring(.none)

/// `bench.echo`: a synchronous skill with typed arguments and output (so decoding and encoding are part of
/// what is measured, as in any real skill).
struct Echo: SynchronousSkill {
    struct Arguments: Decodable, Sendable {
        var text: String
    }

    struct Output: Encodable, Sendable {
        var text: String
    }

    let name = "echo"
    let title = "Echo"
    let description = "Returns its text argument unchanged. Only for measuring dispatch."
    let parameters = ParameterSchema.object(
        ["text": .string("Any text; returned as is")], required: ["text"])
    let timeout = 5.0

    func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
        Output(text: arguments.text)
    }
}

/// `bench.echo_async`: the same as an async skill that finishes without suspending, i.e. what a skill
/// written before ``SynchronousSkill`` costs (`Task.immediate`, the call rendezvous).
struct AsyncEcho: Skill {
    typealias Arguments = Echo.Arguments
    typealias Output = Echo.Output

    let name = "echo_async"
    let title = "Echo (async)"
    let description = "Returns its text argument unchanged, from an async execute. Only for measuring dispatch."
    let parameters = ParameterSchema.object(
        ["text": .string("Any text; returned as is")], required: ["text"])
    let timeout = 5.0

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        Output(text: arguments.text)
    }
}
