/// A source with no skills: what the CLI serves until instruction skills exist in SkillHostCore.
public struct EmptyInstructionSkillSource: InstructionSkillSource {
    /// The empty source.
    public init() {}
    public func skills() throws -> [MCPInstructionSkill] { [] }
    public func read(skill name: String, file path: String) throws -> [UInt8] {
        throw JSONRPCError.invalidParams("no instruction skill \"\(name)\"")
    }
    public var watchedPaths: [String] { [] }
}
