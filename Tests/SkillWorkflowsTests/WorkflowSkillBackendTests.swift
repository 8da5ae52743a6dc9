import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillWorkflows
import Testing

/// `workflow.NAME` as a skill: its file is read and checked once per call (prepare), and the run uses what
/// prepare read; steps call the step backend, which may offer more than the one the call came through.
@Suite struct WorkflowSkillBackendTests {
    @Test func theFileIsReadOncePerCallAndStepsUseTheStepBackend() async throws {
        let folder = HostTestSupport.temporaryDirectory("installed-workflows")
        let installed = InstalledWorkflows(folder: folder)
        let text = "name: once\nsteps:\n  - id: a\n    skill: extra.echo\n    arguments:\n      word: one\n"
        _ = try installed.install(try WorkflowParser.parse(text, file: "once.yaml").get(), text: text)
        let inner = MemoryBackend([])
        // The step backend offers a skill the inner one does not (as the CLI adds the script tool).
        let steps = MemoryBackend([MemoryBackend.Skill(tool: SkillTool(id: "extra.echo", description: "echo", parameters: ["type": "object"], idempotent: true)) { arguments, _ in
            ["said": arguments["word"] ?? .null]
        }])
        let backend = WorkflowSkillBackend(inner: inner, steps: steps, installed: installed)
        #expect(try await backend.listTools().map(\.id) == ["workflow.once"])
        let prepared = try backend.prepare(skillID: "workflow.once", arguments: [:])
        // Changed after prepare: the call runs what prepare read and checked.
        let path = try #require(installed.files()["once"])
        try "name: once\nsteps:\n  - id: a\n    skill: nothing.here\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await backend.run(prepared, options: InvocationOptions())
        #expect(result["outputs"]?["a"]?["said"] == "one", "\(result)")
        // The next call reads the file again, and refuses what it now says.
        #expect(throws: HostError.self) { try backend.prepare(skillID: "workflow.once", arguments: [:]) }
    }
}
