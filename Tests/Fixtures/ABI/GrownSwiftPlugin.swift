import SkillSDK
struct Echo: Skill {
    let name = "echo"
    let title = "Echo"
    let description = "Echoes."
    let parameters: JSONValue = ["type": "object", "additionalProperties": true]
    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { ["echo": arguments] }
}
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    SkillPlugin(id: "swift11", name: "Swift 1.1", version: "1.0.0", description: "Built against a 1.1 header.",
                skills: [Echo()]).export(major, minor, host)
}
