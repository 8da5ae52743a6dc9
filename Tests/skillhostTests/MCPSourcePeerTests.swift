import Foundation
import SkillJSON
import Testing

/// Real MCP servers from PyPI used as skill sources (issue #35): `mcp-server-time` and `mcp-server-git`
/// (against a repository the test creates), each installed by the test into `.build/peers/`, added with
/// `skillhost add-mcp`, listed, inspected, called, disabled, traced; and a Python `mcp` client calling the
/// time server's tool through `skillhost mcp` (the gateway).
@Suite(.serialized) struct MCPSourcePeerTests {
    static let time = PythonVirtualEnvironment(name: "mcp-server-time", packages: ["mcp-server-time"], probe: "import mcp_server_time")
    static let git = PythonVirtualEnvironment(name: "mcp-server-git", packages: ["mcp-server-git"], probe: "import mcp_server_git")
    static let client = PythonVirtualEnvironment(name: "mcp", packages: ["mcp>=2"], probe: "import mcp.client.stdio")

    /// A throw-away home for one test: registry, plugins, cache, skills, state, data.
    struct Home {
        let root = TestPackage.temporaryDirectory("mcp-sources")
        var registry: String { root + "/config/skill_registry.json" }
        var global: [String] {
            ["--registry", registry, "--plugins", root + "/plugins", "--cache", root + "/cache", "--skills", root + "/skills"]
        }
        var environment: [String: String] {
            ["SKILLHOST_STATE": root + "/state", "XDG_DATA_HOME": root, "PATH": "/usr/bin:/bin", "HOME": root]
        }

        func run(_ arguments: [String]) throws -> ProcessResult {
            // The folders go before the words, which may end with `-- COMMAND …`.
            try TestProcess.run(try TestPackage.skillhostBinary(), [arguments[0]] + global + arguments.dropFirst(), environment: environment)
        }

        func json(_ arguments: [String]) throws -> JSONValue {
            let result = try run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONValue(parsing: Array(result.stdout.utf8))
        }
    }

    func addTime(_ home: Home) throws {
        _ = try Self.time.python()
        let added = try home.run(["add-mcp", "time", "--", Self.time.folder + "/bin/mcp-server-time", "--local-timezone", "UTC"])
        #expect(added.status == 0, "\(added.stderr)")
    }

    /// `skillhost set` takes an MCP server's tool as it takes a plugin's skill: at
    /// `mcp_servers.NAME.tools.ID`, the tool looked up on the server first (a misspelt one is refused with
    /// "did you mean"), and what it writes is what `call` and `inspect` then follow.
    @Test(.timeLimit(.minutes(5)))
    func setTakesAnMCPServersTool() throws {
        let home = Home()
        try addTime(home)
        let denied = try home.json(["set", "time.get_current_time", "approval", "deny", "--json"])
        #expect(denied["path"] == "mcp_servers.time.tools.time.get_current_time.approval", "\(denied)")
        let refused = try home.run(["call", "time.get_current_time", #"{"timezone":"UTC"}"#])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(#"mcp_servers.time.tools.time.get_current_time.approval is "deny""#), "\(refused.stderr)")
        let misspelt = try home.run(["set", "time.get_curent_time", "approval", "deny"])
        #expect(misspelt.status == 3, "\(misspelt.stderr)")
        #expect(misspelt.stderr.contains(#"did you mean "time.get_current_time""#), "\(misspelt.stderr)")
        #expect(try home.run(["set", "time.get_current_time", "approval", "--reset"]).status == 0)
        let fromAnnotations = try home.run(["inspect", "time.get_current_time"]).stdout
        #expect(fromAnnotations.contains("permission:  read (from the server's annotations: readOnlyHint is read"), "\(fromAnnotations)")
        #expect(try home.json(["set", "time.get_current_time", "permission", "dangerous", "--json"])["value"] == "dangerous")
        let inspected = try home.json(["inspect", "time.get_current_time", "--json"])
        #expect(inspected["permission"] == "dangerous", "\(inspected)")
        let overridden = try home.run(["inspect", "time.get_current_time"]).stdout
        #expect(overridden.contains("permission:  dangerous (set in the registry at mcp_servers.time.tools.time.get_current_time.permission; 'skillhost set time.get_current_time permission --reset'"), "\(overridden)")
        let registry = try JSONValue(parsing: Array(try String(contentsOfFile: home.registry, encoding: .utf8).utf8))
        #expect(registry["mcp_servers"]?["time"]?["tools"] == ["time.get_current_time": ["permission": "dangerous"]], "\(registry)")
    }

    @Test(.timeLimit(.minutes(5)))
    func timeServerToolsAreSkills() throws {
        let home = Home()
        try addTime(home)
        let list = try home.run(["list"])
        #expect(list.stdout.contains("MCP SERVER"), "\(list.stdout)")
        #expect(list.stdout.contains("time.get_current_time"), "\(list.stdout)")
        let listed = try home.json(["list", "--json"])
        let tools = listed["mcp_servers"]?.arrayValue?.first?["tools"]?.arrayValue ?? []
        #expect(Set(tools.compactMap { $0["id"]?.stringValue }) == ["time.get_current_time", "time.convert_time"])
        #expect(tools.allSatisfy { $0["permission"] == "read" }, "readOnlyHint → read")

        let inspected = try home.json(["inspect", "time.get_current_time", "--json"])
        #expect(inspected["server"] == "time")
        #expect(inspected["name"] == "get_current_time")
        #expect(inspected["input_schema"]?["properties"]?["timezone"] != nil, "\(inspected)")
        #expect(inspected["annotations"]?["readOnlyHint"] == true)
        #expect(inspected["transport"]?["type"] == "stdio")
        let installation = inspected["sandbox"]?["installation"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(installation.first == Self.time.folder, "the virtual environment, read-only: \(installation)")
        #expect(inspected["sandbox"]?["data"]?.stringValue == home.root + "/skillhost/mcp-data/time")

        let called = try home.json(["call", "time.get_current_time", #"{"timezone":"Asia/Tokyo"}"#, "--json"])
        #expect(called["result"]?["timezone"] == "Asia/Tokyo")
        #expect(called["result"]?["datetime"]?.stringValue?.hasSuffix("+09:00") == true, "\(called)")

        let bad = try home.run(["call", "time.get_current_time", #"{"timezone":"Nowhere/Atlantis"}"#])
        #expect(bad.status == 6, "\(bad.stderr)")
        #expect(bad.stderr.contains("time.get_current_time failed:") && bad.stderr.contains("Nowhere/Atlantis"), "\(bad.stderr)")
        let invalid = try home.run(["call", "time.get_current_time", #"{"zone":"UTC"}"#])
        #expect(invalid.status == 5, "arguments are checked against the server's inputSchema: \(invalid.stderr)")
        let unknown = try home.run(["call", "time.get_current_tim", "{}"])
        #expect(unknown.status == 3 && unknown.stderr.contains("did you mean \"time.get_current_time\""), "\(unknown.stderr)")

        #expect(try home.run(["disable", "time.get_current_time"]).status == 0)
        let disabled = try home.run(["call", "time.get_current_time", #"{"timezone":"UTC"}"#])
        #expect(disabled.status == 4, "\(disabled.stderr)")
        #expect(disabled.stderr.contains("skillhost enable time.get_current_time"))
        #expect(try home.run(["enable", "time.get_current_time"]).status == 0)

        let trace = try home.run(["trace"])
        #expect(trace.stdout.contains("time.get_current_time"), "calls are recorded like any: \(trace.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func gitServerAgainstARepositoryTheTestMakes() throws {
        let home = Home()
        _ = try Self.git.python()
        let repository = home.root + "/repo"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try TestPackage.write("first\n", to: repository + "/notes.txt")
        for words in [["init", "-q"], ["add", "notes.txt"], ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "the first commit"]] {
            #expect(try TestProcess.run("/usr/bin/git", ["-C", repository] + words).status == 0)
        }
        let added = try home.run(["add-mcp", "git", "--read-write", repository, "--", Self.git.folder + "/bin/mcp-server-git", "--repository", repository])
        #expect(added.status == 0, "\(added.stderr)")
        let log = try home.json(["call", "git.git_log", "{\"repo_path\":\"\(repository)\"}", "--json"])
        #expect(log["result"]?["text"]?.stringValue?.contains("the first commit") == true, "\(log)")
        // A write tool asks first; nobody at a terminal answers, so nothing runs.
        try TestPackage.write("second\n", to: repository + "/notes.txt")
        let refused = try home.run(["call", "git.git_add", "{\"repo_path\":\"\(repository)\",\"files\":[\"notes.txt\"]}"])
        #expect(refused.status == 10, "\(refused.stderr)")
        let approved = try home.run(["call", "git.git_add", "{\"repo_path\":\"\(repository)\",\"files\":[\"notes.txt\"]}", "--yes"])
        #expect(approved.status == 0, "\(approved.stderr)")
        let staged = try TestProcess.run("/usr/bin/git", ["-C", repository, "diff", "--cached", "--name-only"])
        #expect(staged.stdout.contains("notes.txt"))
        // Outside its repository the server's own rule and the sandbox both hold.
        let outside = try home.run(["call", "git.git_status", #"{"repo_path":"/root"}"#])
        #expect(outside.status != 0)
    }

    @Test(.timeLimit(.minutes(5)))
    func aPythonClientCallsTheToolThroughSkillhostMCP() throws {
        let home = Home()
        try addTime(home)
        let python = try Self.client.python()
        let result = try TestProcess.run(python, [
            TestPackage.root + "/Tests/Peers/mcp_gateway_client.py", try TestPackage.skillhostBinary(), home.registry,
            home.root + "/state", home.root,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try JSONValue(parsing: Array(result.stdout.utf8))
        let tools = answer["tools"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(tools.contains("time_get_current_time") && tools.contains("time_convert_time"), "\(tools)")
        #expect(answer["annotations"]?["time_get_current_time"]?["readOnlyHint"] == true)
        #expect(answer["isError"] == false, "\(answer)")
        #expect(answer["structured"]?["timezone"] == "Asia/Tokyo", "\(answer)")
        let trace = try home.run(["trace"])
        #expect(trace.stdout.contains("time.get_current_time") && trace.stdout.contains("mcp"), "\(trace.stdout)")
    }
}
