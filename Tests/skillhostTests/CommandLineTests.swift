import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Runs the built `skillhost` binary with temporary `--plugins/--registry/--cache` folders.
@Suite("The skillhost command line, end to end")
struct CommandLineTests {
    func root(isolation: String = "inprocess") throws -> String {
        let root = HostTestSupport.temporaryDirectory("cli")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(["NO_ENTRY"]), into: root + "/plugins", as: "broken.so")
        try HostTestSupport.write(#"{"version": 1, "plugins": {"fixture": {"isolation": "\#(isolation)"}}}"#, to: root + "/config/skill_registry.json")
        return root
    }

    @Test("list --json has the documented shape and shows every file")
    func listJSON() throws {
        let root = try root()
        let result = try HostTestSupport.skillhost(["list", "--json"], root: root)
        #expect(result.status == 0)
        let document = try JSONValue(parsing: result.stdout)
        let plugins = try #require(document["plugins"]?.arrayValue)
        #expect(plugins.count == 2)
        for plugin in plugins {
            #expect(Set(plugin.objectValue?.keys ?? []) == ["id", "kind", "path", "status", "enabled", "error", "skills", "sandbox", "publisher", "policy"])
            // Not installed from a signed package, no administrator's policy.
            #expect(plugin["publisher"] == .null && plugin["policy"] == [])
        }
        let fixture = try #require(plugins.first { $0["id"] == "fixture" })
        #expect(fixture["status"] == "ok")
        #expect(fixture["error"] == .null)
        #expect(fixture["enabled"] == true)
        let skill = try #require(fixture["skills"]?.arrayValue?.first)
        #expect(Set(skill.objectValue?.keys ?? []) == ["id", "title", "description", "enabled", "permission", "output_schema"])
        #expect(skill["id"] == "fixture.echo")
        let broken = try #require(plugins.first { $0["id"] == "broken" })
        #expect(broken["status"] == "invalid")
        #expect(broken["error"]?.stringValue?.contains("skill_plugin_entry") == true)
        #expect(broken["skills"] == [])
        let table = try HostTestSupport.skillhost(["list"], root: root)
        #expect(table.status == 0)
        #expect(table.stdout.contains("fixture.echo"))
        #expect(table.stdout.contains("invalid"))
    }

    @Test("inspect shows a skill's full object and a plugin's object; unknown ids exit 3")
    func inspect() throws {
        let root = try root()
        let skill = try JSONValue(parsing: try HostTestSupport.skillhost(["inspect", "FIXTURE.note", "--json"], root: root).stdout)
        for key in ["id", "title", "description", "enabled", "permission", "parameters", "timeout", "idempotent", "examples", "plugin", "path"] {
            #expect(skill[key] != nil, "missing \(key)")
        }
        #expect(skill["permission"] == "write")
        #expect(skill["timeout"] == 5)
        #expect(skill["plugin"] == "fixture")
        #expect(skill["parameters"]?["required"] == ["text"])
        let plugin = try JSONValue(parsing: try HostTestSupport.skillhost(["inspect", "fixture", "--json"], root: root).stdout)
        #expect(plugin["version"] == "1.2.3")
        #expect(plugin["description"] == "Test fixture plugin.")
        #expect(plugin["skills"]?.arrayValue?.count == 7)
        let missing = try HostTestSupport.skillhost(["inspect", "nothing"], root: root)
        #expect(missing.status == 3)
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    @Test("call prints the result; invalid arguments, not found and disabled have their exit codes")
    func callExitCodes() throws {
        let root = try root()
        let ok = try HostTestSupport.skillhost(["call", "fixture.echo", #"{"text":"hi"}"#], root: root)
        #expect(ok.status == 0)
        #expect(try JSONValue(parsing: ok.stdout)["echo"] == ["text": "hi"])
        let stdin = try HostTestSupport.skillhost(["call", "fixture.echo", "-", "--json"], root: root, stdin: #"{"count": 2}"#)
        #expect(try JSONValue(parsing: stdin.stdout) == ["ok": true, "result": ["echo": ["count": 2], "call_id": .string(
            (try JSONValue(parsing: stdin.stdout))["result"]?["call_id"]?.stringValue ?? ""), "session_id": ""]])
        let invalid = try HostTestSupport.skillhost(["call", "fixture.echo", #"{"count":"x"}"#], root: root)
        #expect(invalid.status == 5)
        #expect(invalid.stderr.contains("`/count`"))
        let notJSON = try HostTestSupport.skillhost(["call", "fixture.echo", "{nope"], root: root)
        #expect(notJSON.status == 5)
        let missing = try HostTestSupport.skillhost(["call", "fixture.nothing"], root: root)
        #expect(missing.status == 3)
        #expect(try HostTestSupport.skillhost(["disable", "fixture.echo"], root: root).status == 0)
        let disabled = try HostTestSupport.skillhost(["call", "fixture.echo"], root: root)
        #expect(disabled.status == 4)
        #expect(disabled.stderr.contains("skillhost enable fixture.echo"))
        let failed = try HostTestSupport.skillhost(["call", "fixture.fail"], root: root)
        #expect(failed.status == 6)
        // One error line each (an untrusted plugin may add its one-line trust warning before it).
        for result in [invalid, notJSON, missing, disabled, failed] {
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("skillhost: call: ") }
            #expect(errors.count == 1, "not one error line: \(result.stderr)")
        }
    }

    @Test("write skills are denied when not interactive and allowed with --yes")
    func approval() throws {
        let root = try root()
        let denied = try HostTestSupport.skillhost(["call", "fixture.note", #"{"text":"x"}"#], root: root)
        #expect(denied.status == 10)
        #expect(denied.stderr.contains("--yes"))
        let allowed = try HostTestSupport.skillhost(["call", "fixture.note", #"{"text":"x"}"#, "--yes"], root: root)
        #expect(allowed.status == 0)
        #expect(FileManager.default.fileExists(atPath: root + "/xdg-data/skillhost/data/fixture/note.txt"))
    }

    @Test("a skill runs in a worker process by default (process isolation)")
    func processIsolation() throws {
        let root = try root(isolation: "process")
        let ok = try HostTestSupport.skillhost(["call", "fixture.echo", #"{"text":"w"}"#], root: root)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try JSONValue(parsing: ok.stdout)["echo"] == ["text": "w"])
    }

    @Test("a skill that passes its timeout exits 7")
    func timeoutExitCode() throws {
        let root = try root()
        try HostTestSupport.write(#"{"plugins": {"fixture": {"isolation": "inprocess", "skills": {"fixture.slow": {"timeout": 0.2}}}}}"#,
                                  to: root + "/config/skill_registry.json")
        #expect(try HostTestSupport.skillhost(["call", "fixture.slow"], root: root).status == 7)
    }

    @Test("enable/disable persist; unknown ids exit 3 and change nothing; a malformed registry exits 12 untouched")
    func enableDisable() throws {
        let root = try root()
        #expect(try HostTestSupport.skillhost(["disable", "Fixture"], root: root).status == 0)
        let list = try JSONValue(parsing: try HostTestSupport.skillhost(["list", "--json"], root: root).stdout)
        #expect(list["plugins"]?.arrayValue?.first { $0["id"] == "fixture" }?["status"] == "disabled")
        let before = try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8)
        #expect(try HostTestSupport.skillhost(["enable", "fixture", "ghost"], root: root).status == 3)
        #expect(try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8) == before)
        try HostTestSupport.write("{\"plugins\": [", to: root + "/config/skill_registry.json")
        let malformed = try HostTestSupport.skillhost(["enable", "fixture"], root: root)
        #expect(malformed.status == 12)
        #expect(malformed.stderr.contains("line 1, column"))
        #expect(try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8) == "{\"plugins\": [")
    }

    @Test("validate checks a file without installing it: valid exits 0, invalid lists problems and exits 9")
    func validate() throws {
        let root = try root()
        let good = try HostTestSupport.skillhost(["validate", try HostTestSupport.fixturePlugin()], root: root)
        #expect(good.status == 0)
        #expect(good.stdout.contains("valid plugin fixture 1.2.3"))
        let bad = try HostTestSupport.skillhost(["validate", try HostTestSupport.fixturePlugin(["DESCRIPTOR_MAJOR=2"]), "--json"], root: root)
        #expect(bad.status == 9)
        #expect(try JSONValue(parsing: bad.stdout)["valid"] == false)
        let crash = try HostTestSupport.skillhost(["validate", try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD"])], root: root)
        #expect(crash.status == 8)
        #expect(crash.stderr.contains("SIGSEGV"))
        #expect(try HostTestSupport.skillhost(["validate", root + "/nothing.so"], root: root).status == 3)
    }

    @Test("rescan scans again and prints the list")
    func rescan() throws {
        let root = try root()
        let result = try HostTestSupport.skillhost(["rescan", "--json"], root: root)
        #expect(result.status == 0)
        #expect(try JSONValue(parsing: result.stdout)["plugins"]?.arrayValue?.count == 2)
    }

    @Test("--help works on every host command; unknown options and missing arguments exit 2",
          arguments: ["list", "inspect", "enable", "disable", "call", "validate", "rescan"])
    func help(command: String) throws {
        let root = try root()
        let help = try HostTestSupport.skillhost([command, "--help"], root: root)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: skillhost \(command)"))
        let unknown = try HostTestSupport.skillhost([command, "--frobnicate"], root: root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains(#"unknown option "--frobnicate""#))
    }

    @Test("the top-level help lists every command with its summary in one column")
    func topLevelHelpAlignsSummaries() throws {
        let help = try HostTestSupport.skillhost(["--help"], root: try root())
        #expect(help.status == 0)
        let commandLines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0 != "Commands:" }.dropFirst().prefix { !$0.isEmpty }
        #expect(commandLines.count > 20)
        #expect(commandLines.contains { $0.hasPrefix("  import-mcp ") })
        // The column where each summary starts: after the name and at least one space.
        let columns = Set(commandLines.map { line -> Int in
            let afterName = line.dropFirst(2).drop { $0 != " " }
            return line.count - afterName.drop { $0 == " " }.count
        })
        #expect(columns.count == 1, "summaries start at columns \(columns.sorted())")
    }

    @Test("an option whose value was left out does not take the next option as its value")
    func anOptionDoesNotSwallowTheNextOption() throws {
        let root = try root()
        let swallowed = try HostTestSupport.skillhost(["list", "--plugins", "--verbose"], root: root)
        #expect(swallowed.status == 2)
        #expect(swallowed.stderr.contains("option --plugins needs a value before --verbose; give it one, or write --plugins=VALUE"))
        let http = try HostTestSupport.skillhost(["mcp", "--http", "--registry", "r.json"], root: root)
        #expect(http.status == 2)
        #expect(http.stderr.contains("option --http needs a value before --registry"))
        // A value that only looks like an option is still a value when written with '='.
        let inline = try HostTestSupport.skillhost(["list", "--plugins=--verbose"], root: root)
        #expect(inline.status == 0)
        #expect(!inline.stderr.contains("needs a value"))
    }

    @Test("a mistyped command, option or id gets a 'did you mean' hint; a word unlike any gets none")
    func didYouMean() throws {
        let root = try root()
        let command = try HostTestSupport.skillhost(["lsit"], root: root)
        #expect(command.status == 2)
        #expect(command.stderr.contains(#"unknown command "lsit"; did you mean "list"?"#))
        // A command with a word added, as after add-mcp: the command in it.
        let added = try HostTestSupport.skillhost(["remove-mcp", "x"], root: root)
        #expect(added.status == 2 && added.stderr.contains(#"unknown command "remove-mcp"; did you mean "remove"? run 'skillhost --help' for the list"#), "\(added.stderr)")
        let option = try HostTestSupport.skillhost(["list", "--jsn"], root: root)
        #expect(option.status == 2)
        #expect(option.stderr.contains(#"unknown option "--jsn"; did you mean "--json"?"#))
        let skill = try HostTestSupport.skillhost(["call", "fixture.ecoh", "{}"], root: root)
        #expect(skill.status == 3)
        #expect(skill.stderr.contains(#"no skill "fixture.ecoh"; did you mean "fixture.echo"?"#))
        let inspect = try HostTestSupport.skillhost(["inspect", "fixtur"], root: root)
        #expect(inspect.status == 3)
        #expect(inspect.stderr.contains(#"did you mean "fixture"?"#))
        let unlike = try HostTestSupport.skillhost(["frobnicate"], root: root)
        #expect(unlike.status == 2)
        #expect(!unlike.stderr.contains("did you mean"))
        let hidden = try HostTestSupport.skillhost(["_scan"], root: root)
        #expect(!hidden.stderr.contains("__scan"), "hidden commands are never suggested")
    }

    @Test("missing positional arguments are usage errors", arguments: [["inspect"], ["enable"], ["call"], ["validate"], ["list", "extra"]])
    func missingArguments(arguments: [String]) throws {
        #expect(try HostTestSupport.skillhost(arguments, root: try root()).status == 2)
    }
}
