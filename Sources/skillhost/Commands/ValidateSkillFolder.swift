import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost validate PATH` when PATH is a skill folder (or its `SKILL.md`): the reference validator's
/// checks and wording (`agentskills validate`).
enum ValidateSkillFolder {
    /// The exit code when the path is a folder or a `SKILL.md`; nil for anything else (a plugin file).
    static func runIfSkillFolder(_ parsed: ParsedArguments) -> Int32? {
        var path = parsed.positionals[0]
        var isDirectory: Bool { (try? FileKind.isDirectory(path)) ?? false }
        let lastName = path.split(separator: "/").last.map(String.init) ?? path
        if lastName.lowercased() == "skill.md" {
            path = String(path.dropLast(lastName.count))
            if path.isEmpty { path = "." }
        } else if !isDirectory {
            return nil
        }
        let problems = HostOptions.host(parsed).validateSkillFolder(path: path)
        if parsed.has("--json") {
            HostOptions.printJSON([
                "path": .string(path), "kind": "instructions", "valid": .bool(problems.isEmpty),
                "problems": .array(problems.map(JSONValue.string)), "manifest": .null,
            ])
        } else if problems.isEmpty {
            print("Valid skill: \(path)")
        } else {
            ErrorReporter.printError("Validation failed for \(path):")
            for problem in problems { ErrorReporter.printError("  - \(problem)") }
        }
        return problems.isEmpty ? ExitCode.success : ExitCode.invalidPlugin
    }
}

/// Whether a path is a folder (following links).
enum FileKind {
    static func isDirectory(_ path: String) throws -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
