import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Workflow steps of every skill kind, with real peers: a tool of `mcp-server-time` (from PyPI, confined as
/// any MCP source) and a script of an instruction skill (`run_skill_script`), wired together and delivered
/// to a file, through `workflow validate`, `workflow run`, `call workflow.NAME` and `skillhost mcp` — the same
/// backend composition in each.
@Suite(.serialized) struct WorkflowSourcesCLITests {
    typealias Home = MCPSourcePeerTests.Home

    static let workflow = """
        name: mixed
        description: The time in Tokyo, greeted by a script.
        steps:
          - id: tokyo
            skill: time.get_current_time
            arguments:
              timezone: Asia/Tokyo
          - id: greet
            skill: run_skill_script
            arguments:
              name: greeter
              path: scripts/hello.py
              args: ["${{ steps.tokyo.output.timezone }}"]
        deliver:
          to: greetings/tokyo.txt
          text: ${{ steps.greet.output.stdout }}

        """

    /// A home with the time server and the `greeter` instruction skill (`scripts/hello.py WORD` prints `hello WORD`).
    func makeHome() throws -> Home {
        let home = Home()
        _ = try MCPSourcePeerTests.time.python()
        let added = try home.run(["add-mcp", "time", "--", MCPSourcePeerTests.time.folder + "/bin/mcp-server-time", "--local-timezone", "UTC"])
        #expect(added.status == 0, "\(added.stderr)")
        try TestPackage.write("---\nname: greeter\ndescription: Use greeter to greet someone.\n---\nRun scripts/hello.py NAME.\n", to: home.root + "/skills/greeter/SKILL.md")
        try TestPackage.write("import sys\nprint('hello', sys.argv[1])\n", to: home.root + "/skills/greeter/scripts/hello.py")
        try TestPackage.write(Self.workflow, to: home.root + "/mixed.yaml")
        return home
    }

    @Test(.timeLimit(.minutes(5)), .enabled(if: KernelSandbox.landlockABI > 0, "scripts run under Landlock"))
    func anMCPToolAndAScriptAreSteps() throws {
        let home = try makeHome()
        let file = home.root + "/mixed.yaml"
        let checked = try home.run(["workflow", "validate", file])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("ok, workflow mixed, 2 steps: tokyo (time.get_current_time), greet (run_skill_script)"), "\(checked.stdout)")
        // The script declares no output schema: said, not guessed.
        #expect(checked.stdout.contains("into step greet's output is not type-checked: run_skill_script declares no output schema"), "\(checked.stdout)")
        #expect(checked.stdout.contains("delivers to \(home.root)/skillhost/deliveries/greetings/tokyo.txt"), "\(checked.stdout)")

        // Run: the MCP tool's output feeds the script's argument; the script's stdout is delivered.
        let run = try home.run(["workflow", "run", file, "--yes", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let finished = try #require(events.last)
        #expect(finished["state"] == "done", "\(run.stdout)")
        #expect(finished["outputs"]?["tokyo"]?["timezone"] == "Asia/Tokyo", "\(finished)")
        #expect(finished["outputs"]?["greet"]?["stdout"] == "hello Asia/Tokyo\n", "\(finished)")
        let delivered = home.root + "/skillhost/deliveries/greetings/tokyo.txt"
        #expect(events.contains { $0["event"] == "delivered" && $0["path"] == .string(delivered) }, "\(run.stdout)")
        #expect((try? String(contentsOfFile: delivered, encoding: .utf8)) == "hello Asia/Tokyo\n")
        // The script ran in the run's own workspace, and the history names each step.
        let runID = try #require(events.first?["run"]?.stringValue)
        #expect(finished["outputs"]?["greet"]?["workspace"]?.stringValue?.hasSuffix("/workspaces/workflow-" + runID) == true, "\(finished)")
        let history = try home.run(["history", "workflow-" + runID])
        #expect(history.stdout.contains("[ok] tokyo (time.get_current_time)"), "\(history.stdout)")
        #expect(history.stdout.contains("[ok] greet (run_skill_script)"), "\(history.stdout)")

        // Installed, it is a skill for `call` (the script step is write: approved once, up front).
        #expect(try home.run(["workflow", "install", file]).status == 0)
        let refused = try home.run(["call", "workflow.mixed", "{}"])
        #expect(refused.status == 10, "\(refused.stderr)")
        let called = try home.json(["call", "workflow.mixed", "{}", "--yes", "--json"])
        #expect(called["result"]?["outputs"]?["greet"]?["stdout"] == "hello Asia/Tokyo\n", "\(called)")
        #expect(called["result"]?["delivered"] == .string(delivered), "\(called)")

        // And for `skillhost mcp`: tools/list offers it, tools/call runs both steps.
        let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(meta)}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"workflow_mixed","arguments":{},\#(meta)}}"#,
        ]
        let mcp = try TestProcess.run(
            try TestPackage.skillhostBinary(), ["mcp", "--allow-writes"] + home.global, environment: home.environment,
            stdin: requests.joined(separator: "\n") + "\n")
        let answers = try mcp.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let names = answers.first { $0["id"] == 1 }?["result"]?["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("workflow_mixed"), "\(names) \(mcp.stderr)")
        let result = answers.first { $0["id"] == 2 }?["result"]
        #expect(result?["isError"] != true, "\(mcp.stdout) \(mcp.stderr)")
        #expect(result?["structuredContent"]?["outputs"]?["greet"]?["stdout"] == "hello Asia/Tokyo\n", "\(mcp.stdout)")
    }

    /// What validation says of steps of these kinds, one line each with its place and the fix.
    @Test(.timeLimit(.minutes(5)))
    func badStepsOfEveryKindAreRefusedOneLineEach() throws {
        let home = try makeHome()
        let file = home.root + "/bad.yaml"
        try TestPackage.write("""
            name: bad
            steps:
              - id: typo
                skill: time.get_current_tim
              - id: wrong
                skill: time.get_current_time
                arguments:
                  zone: UTC
              - id: missing
                skill: run_skill_script
                arguments:
                  name: greeter
                  path: scripts/nope.py
              - id: nobody
                skill: run_skill_script
                arguments:
                  name: stranger
                  path: scripts/hello.py

            """, to: file)
        let checked = try home.run(["workflow", "validate", file])
        #expect(checked.status == 5, "\(checked.stdout)\(checked.stderr)")
        let lines = checked.stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("warning:") }
        #expect(lines.contains { $0.hasPrefix(file + ":4:5: step typo: MCP server time has no tool time.get_current_tim; did you mean \"time.get_current_time\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(file + ":8:7: step wrong: time.get_current_time has no parameter 'zone'; use one of: timezone") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(file + ":13:7: step missing: ") && $0.contains("scripts/nope.py") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(file + ":17:7: step nobody: ") && $0.contains("stranger") }, "\(lines)")
        #expect(lines.contains { $0 == file + ":7:5: step wrong: time.get_current_time needs the argument 'timezone'; add it under arguments" }, "\(lines)")
        // A delivery that would leave the deliveries folder (a fault of the file: found before the skills are looked at).
        let outside = home.root + "/outside.yaml"
        try TestPackage.write(Self.workflow.replacingOccurrences(of: "to: greetings/tokyo.txt", with: "to: ../outside.txt"), to: outside)
        let refused = try home.run(["workflow", "validate", outside])
        #expect(refused.status == 5)
        #expect(refused.stderr.contains(outside + ":15:3: deliver.to '../outside.txt' leaves the deliveries folder ('..'); give a relative path under the deliveries folder such as 'briefings/today.md'"), "\(refused.stderr)")
        // A disabled MCP tool says how to enable it.
        #expect(try home.run(["disable", "time.get_current_time"]).status == 0)
        let disabled = try home.run(["workflow", "validate", home.root + "/mixed.yaml"])
        #expect(disabled.status == 5)
        #expect(disabled.stderr.contains(":5:5: step tokyo: skill time.get_current_time is disabled; run 'skillhost enable time.get_current_time'"), "\(disabled.stderr)")
    }
}
