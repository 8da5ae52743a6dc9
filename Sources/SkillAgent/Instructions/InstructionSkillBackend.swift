import SkillHostCore
import SkillJSON

/// A ``SkillBackend`` that adds instruction skills to another backend: while any instruction skill is
/// enabled, the tools `activate_skill` and `read_skill_file` are offered beside the base backend's tools
/// and answered here; every other call goes to the base backend. Bundled scripts are never run.
public struct InstructionSkillBackend: SkillBackend, InstructionPromptSource {
    /// The backend for every other tool.
    public let base: any SkillBackend
    /// Where the instruction skills come from.
    public let library: any InstructionLibrary

    /// Instruction skills from `library` on top of `base`.
    public init(base: any SkillBackend, library: any InstructionLibrary) {
        self.base = base
        self.library = library
    }

    public func tools() async throws -> [AgentTool] {
        let skills = (try? library.enabledSkills()) ?? []
        return try await base.tools() + InstructionTools.tools(for: skills)
    }

    public func instructionPrompt() async -> String {
        InstructionTools.promptSection(for: (try? library.enabledSkills()) ?? [])
    }

    public nonisolated(nonsending) func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        let arguments = invocation.arguments
        switch invocation.skillID {
        case InstructionTools.activate:
            guard let name = arguments["name"]?.stringValue else {
                return .failure(HostError(.invalidArguments, "activate_skill needs {\"name\": skill name}", skillID: invocation.skillID))
            }
            do {
                return .success(InstructionTools.activation(try library.skill(named: name)))
            } catch {
                return .failure(error)
            }
        case InstructionTools.readFile:
            guard let name = arguments["name"]?.stringValue, let path = arguments["path"]?.stringValue else {
                return .failure(HostError(.invalidArguments, "read_skill_file needs {\"name\", \"path\"}", skillID: invocation.skillID))
            }
            let offset = Int(max(0, arguments["offset"]?.intValue ?? 0))
            do {
                let (bytes, size) = try library.read(skill: name, path: path, offset: offset, limit: InstructionTools.fileLimit)
                return .success(try InstructionTools.fileChunk(path: path, offset: offset, bytes: bytes, size: size))
            } catch {
                return .failure(error)
            }
        default:
            return await base.run(invocation)
        }
    }
}

/// A backend that adds a section to the system prompt at the start of each turn (the enabled instruction
/// skills' names and descriptions).
public protocol InstructionPromptSource: Sendable {
    /// Text appended to the system prompt ("" for none).
    func instructionPrompt() async -> String
}
