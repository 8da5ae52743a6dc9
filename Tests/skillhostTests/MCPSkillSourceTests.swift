import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// MCP servers' skills (the Skills extension, SEP-2640; issue #35 "Their skills too"). The peer is a server
/// written with the PyPI `mcp` SDK's `MCPServer` and its extension seam (`Tests/Peers/mcp_skills_server.py`,
/// serving whatever entries the test writes, lies included), and our own `skillhost mcp` serving an
/// instruction skill (skillhost → skillhost). Checked: listing from `skills/list` alone (nothing fetched),
/// names per origin, each bad input refused with its one line, the collision shown, `dynamic_skills`,
/// progressive disclosure in `chat` (fetched when activated or read, verified, origin-tagged, nested skills
/// asked about), and the re-export by `skillhost mcp` read by a Python `mcp` client.
@Suite(.serialized) struct MCPSkillSourceTests {
    typealias Home = MCPSourcePeerTests.Home
    static let sdk = MCPSourcePeerTests.client
    static let server = TestPackage.root + "/Tests/Peers/mcp_skills_server.py"

    /// What the test server serves: entries verbatim, files by URI.
    struct Scenario {
        var skills: [JSONValue] = []
        var files: [String: String] = [:]

        /// A skill at `skill://PATH/` with these files; `entry` may then make its entry lie.
        mutating func add(
            _ path: String, _ files: [String: String], description: String = "A test skill",
            entry change: (inout JSONObject) -> Void = { _ in }
        ) {
            let name = String(path.split(separator: "/").last!)
            var all = files
            if all["SKILL.md"] == nil { all["SKILL.md"] = "---\nname: \(name)\ndescription: \(description)\n---\n\n# \(name)\nDo it well.\n" }
            for (file, text) in all { self.files["skill://\(path)/\(file)"] = text }
            var entry: JSONObject = [
                "uri": .string("skill://\(path)/SKILL.md"),
                "frontmatter": ["name": .string(name), "description": .string(description)],
                "resources": .array(all.keys.sorted().map { file in
                    let bytes = Array(all[file]!.utf8)
                    return ["uri": .string("skill://\(path)/\(file)"), "digest": .string("sha256:" + FileDigest.sha256(of: bytes)), "size": .int(Int64(bytes.count))]
                }),
            ]
            change(&entry)
            skills.append(.object(entry))
        }

        func write(to path: String, log: String) throws {
            let json: JSONValue = ["skills": .array(skills), "files": .object(JSONObject(files.map { ($0.key, .string($0.value)) })), "log": .string(log)]
            try TestPackage.write(json.serialized(), to: path)
        }
    }

    /// Resources with one member of the first (`SKILL.md`) changed.
    static func changingSkillMD(_ member: String, _ value: JSONValue) -> (inout JSONObject) -> Void {
        { entry in
            var resources = entry["resources"]!.arrayValue!
            let index = resources.firstIndex { $0["uri"]?.stringValue?.hasSuffix("/SKILL.md") == true }!
            var object = resources[index].objectValue!
            object[member] = value
            resources[index] = .object(object)
            entry["resources"] = .array(resources)
        }
    }

    /// The scenario every test serves: one good skill (with a nested one) and one of each bad input.
    static func scenario() -> Scenario {
        var scenario = Scenario()
        scenario.add("pdf-tools", ["references/guide.md": "The guide says: use blue ink.\n"], description: "Fill PDF forms")
        scenario.files["skill://pdf-tools/secret.md"] = "served, but not in the entry\n"
        scenario.add("pdf-tools/forms", [:], description: "Nested forms skill")
        scenario.add("digest-bad", [:], entry: changingSkillMD("digest", .string("sha256:" + String(repeating: "0", count: 64))))
        scenario.add("size-bad", [:], entry: { entry in
            let size = entry["resources"]!.arrayValue!.first!["size"]!.intValue!
            changingSkillMD("size", .int(size + 1))(&entry)
        })
        scenario.add("fm-bad", [:], description: "What the file says", entry: { $0["frontmatter"] = ["name": "fm-bad", "description": "What the entry says"] })
        scenario.add("many", [:], entry: { entry in
            let fake: [JSONValue] = (0..<513).map { ["uri": .string("skill://many/f\($0).md"), "digest": .string("sha256:" + String(repeating: "a", count: 64)), "size": 1] }
            entry["resources"] = .array(entry["resources"]!.arrayValue! + fake)
        })
        scenario.add("huge", [:], entry: { entry in
            entry["resources"] = .array(entry["resources"]!.arrayValue! + [["uri": "skill://huge/big.bin", "digest": .string("sha256:" + String(repeating: "b", count: 64)), "size": .int(17 << 20)]])
        })
        scenario.add("dyn", [:], description: "Generated", entry: { $0["resources"] = "dynamic" })
        scenario.add("runner", ["scripts/hello.sh": "#!/bin/sh\necho \"hello from $1\" > greeting.txt\ncat greeting.txt\n"], description: "Runs a script")
        return scenario
    }

    /// A home with the test server added as `docs`; the path of its read log.
    func addServer(_ home: Home, scenario: Scenario = scenario()) throws -> String {
        let python = try Self.sdk.python()
        let log = home.root + "/reads.log"
        try TestPackage.write("", to: log)
        try scenario.write(to: home.root + "/scenario.json", log: log)
        let added = try home.run([
            "add-mcp", "docs", "--read", home.root + "/scenario.json", "--read", Self.server, "--read-write", log,
            "--", python, Self.server, home.root + "/scenario.json",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        return log
    }

    /// One tool call of the scripted model's reply.
    static func call(_ id: String, _ name: String, _ arguments: JSONValue) -> String {
        #"{"id":"\#(id)","type":"function","function":{"name":"\#(name)","arguments":\#(JSONValue.string(arguments.serialized()).serialized())}}"#
    }

    /// A scripted OpenAI-compatible model whose first reply makes `calls` and whose second ends the turn.
    static func model(calling calls: [String]) throws -> ReplayServer {
        try ReplayServer([
            .init(status: 200, headers: ["Content-Type": "application/json"], body: Array((#"{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":["# + calls.joined(separator: ",") + "]}}]}").utf8), pieceSize: 0),
            .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Done."}}]}"#.utf8), pieceSize: 0),
        ], lifetime: 120)
    }

    /// The tool results the model got in its last request, by call id.
    static func toolResults(_ server: ReplayServer) -> [String: String] {
        var results: [String: String] = [:]
        for message in server.requests.last?.body?["messages"]?.arrayValue ?? [] where message["role"] == "tool" {
            results[message["tool_call_id"]?.stringValue ?? ""] = message["content"]?.stringValue ?? ""
        }
        return results
    }

    static func reads(_ log: String) -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test(.timeLimit(.minutes(5)))
    func listedFromTheEntriesAloneEachBadOneRefusedInOneLine() throws {
        let home = Home()
        let log = try addServer(home)
        let listed = try home.json(["list", "--json"])
        let skills = Dictionary(uniqueKeysWithValues: (listed["mcp_skills"]?.arrayValue ?? []).compactMap { skill in
            skill["name"]?.stringValue.map { ($0, skill) }
        })
        #expect(Set(skills.keys) == ["docs:pdf-tools", "docs:pdf-tools/forms", "docs:digest-bad", "docs:size-bad", "docs:fm-bad", "docs:many", "docs:huge", "docs:dyn", "docs:runner"], "\(listed)")
        #expect(Self.reads(log).isEmpty, "listing fetches no file: \(Self.reads(log))")
        #expect(skills["docs:pdf-tools"]?["status"] == "ok")
        #expect(skills["docs:pdf-tools"]?["server"] == "docs" && skills["docs:pdf-tools"]?["uri"] == "skill://pdf-tools/SKILL.md")
        #expect(skills["docs:pdf-tools/forms"]?["nested_in"] == "docs:pdf-tools")
        // Mismatches of content are found only when read (below); these are refused from the entry alone.
        #expect(skills["docs:digest-bad"]?["status"] == "ok" && skills["docs:size-bad"]?["status"] == "ok")
        let many = skills["docs:many"]?["error"]?.stringValue ?? ""
        #expect(many.contains("lists 514 files, over the Skills extension's limit of 512") && !many.contains("\n"), "\(many)")
        let huge = skills["docs:huge"]?["error"]?.stringValue ?? ""
        #expect(huge.contains("over the Skills extension's limit of 16777216 (16 MiB)"), "\(huge)")
        let dynamic = skills["docs:dyn"]?["error"]?.stringValue ?? ""
        #expect(dynamic.contains("\"dynamic\"") && dynamic.contains("skillhost set docs dynamic_skills allow"), "\(dynamic)")

        let text = try home.run(["list"])
        #expect(text.stdout.contains("MCP SKILL") && text.stdout.contains("docs:pdf-tools ") && text.stdout.contains("refused"), "\(text.stdout)")

        let inspected = try home.json(["inspect", "docs:pdf-tools", "--json"])
        #expect(inspected["files"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["SKILL.md", "references/guide.md"], "\(inspected)")
        #expect(Self.reads(log).isEmpty, "inspect fetches nothing either")

        // Dynamic skills: refused until allowed per server.
        let wrong = try home.run(["set", "docs", "dynamic_skills", "maybe"])
        #expect(wrong.status != 0 && wrong.stderr.contains("\"maybe\" is not a value of dynamic_skills; use allow, refuse"), "\(wrong.stderr)")
        let notServer = try home.run(["set", "nobody", "dynamic-skills", "allow"])
        #expect(notServer.status == 3 && notServer.stderr.contains("no MCP server \"nobody\""), "\(notServer.stderr)")
        #expect(try home.run(["set", "docs", "dynamic-skills", "allow"]).status == 0)
        let allowed = try home.json(["list", "--json"])
        let dyn = allowed["mcp_skills"]?.arrayValue?.first { $0["name"] == "docs:dyn" }
        #expect(dyn?["status"] == "dynamic" && dyn?["error"] == .null, "\(String(describing: dyn))")

        // A local instruction skill of the same name: both kept, the collision shown naming both.
        try TestPackage.write("---\nname: pdf-tools\ndescription: mine\n---\nbody\n", to: home.root + "/skills/pdf-tools/SKILL.md")
        let collided = try home.run(["list"])
        #expect(collided.stdout.contains("note: instruction skill \"pdf-tools\": your \(home.root)/skills/pdf-tools and MCP server docs's skill docs:pdf-tools (skill://pdf-tools/SKILL.md) share the name; both are kept"), "\(collided.stdout)")
        #expect(collided.stdout.contains("docs:pdf-tools "), "the MCP skill is still listed under its own name")
    }

    @Test(.timeLimit(.minutes(5)))
    func chatActivatesLazilyVerifiesEveryReadAndAsksForANestedSkill() throws {
        let home = Home()
        let log = try addServer(home)
        let calls = [
            Self.call("a", "activate_skill", ["name": "docs:pdf-tools"]),
            Self.call("b", "read_skill_file", ["name": "docs:pdf-tools", "path": "references/guide.md"]),
            Self.call("c", "read_skill_file", ["name": "docs:pdf-tools", "path": "secret.md"]),
            Self.call("d", "activate_skill", ["name": "docs:digest-bad"]),
            Self.call("e", "activate_skill", ["name": "docs:size-bad"]),
            Self.call("f", "activate_skill", ["name": "docs:fm-bad"]),
            Self.call("g", "activate_skill", ["name": "docs:pdf-tools/forms"]),
        ]
        let server = try Self.model(calling: calls)
        defer { server.stop() }
        let chat = try home.run(["chat", "--json", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "fill the form"])
        #expect(chat.status == 0, "\(chat.stderr)")
        let system = server.requests.first?.body?["messages"]?.arrayValue?.first?["content"]?.stringValue ?? ""
        #expect(system.contains("<name>docs:pdf-tools</name><description>[from MCP server docs, not a local skill] Fill PDF forms"), "\(system)")
        #expect(!system.contains("docs:many") && !system.contains("docs:dyn"), "refused skills are not offered")
        let results = Self.toolResults(server)
        #expect(results["a"]?.contains("come from the MCP server docs (skill://pdf-tools/SKILL.md)") == true, "origin-tagged: \(results["a"] ?? "")")
        #expect(results["a"]?.contains("Do it well.") == true)
        #expect(results["b"]?.contains("use blue ink") == true, "\(results["b"] ?? "")")
        #expect(results["c"]?.contains("secret.md is not among the files its entry lists") == true, "\(results["c"] ?? "")")
        #expect(results["d"]?.contains("SKILL.md has SHA-256") == true && results["d"]?.contains("its entry says 0000000000000000") == true, "\(results["d"] ?? "")")
        #expect(results["e"]?.contains("bytes, its entry says") == true, "\(results["e"] ?? "")")
        #expect(results["f"]?.contains("frontmatter differs from its entry's at") == true && results["f"]?.contains("What the entry says") == true, "\(results["f"] ?? "")")
        #expect(results["g"].map { !$0.contains("Do it well") } == true, "a nested skill is not activated without consent: \(results["g"] ?? "")")
        let fetched = Self.reads(log)
        #expect(fetched.contains("skill://pdf-tools/SKILL.md") && fetched.contains("skill://pdf-tools/references/guide.md"), "\(fetched)")
        #expect(!fetched.contains("skill://pdf-tools/secret.md"), "an unlisted file is never fetched")
        #expect(!fetched.contains("skill://pdf-tools/forms/SKILL.md"), "the nested skill was not approved, so not fetched")
        #expect(!fetched.contains { $0.hasPrefix("skill://many/") || $0.hasPrefix("skill://huge/") })
    }

    /// `/SERVER:PATH` in `chat` activates an MCP server's skill as `/name` does a local one: fetched and verified
    /// then, its instructions (origin-tagged) in front of the message; one that fails verification, or names no
    /// offered skill, is refused in one line and nothing is sent.
    @Test(.timeLimit(.minutes(5)))
    func aSlashServerPathActivatesAnMCPSkillInChat() throws {
        let home = Home()
        let log = try addServer(home)
        let server = try ReplayServer([
            .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Done."}}]}"#.utf8), pieceSize: 0),
        ], lifetime: 120)
        defer { server.stop() }
        let model = ["--provider", "openai", "--base-url", server.baseURL, "--model", "m"]
        #expect(Self.reads(log).isEmpty, "nothing fetched before the activation")
        let chat = try home.run(["chat"] + model + ["/docs:pdf-tools/forms", "fill the tax form"])
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stderr.contains("chat: activated docs:pdf-tools/forms"), "\(chat.stderr)")
        let sent = try #require(server.requests.first?.body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        #expect(sent.hasPrefix("<activated_skill name=\"docs:pdf-tools/forms\">"), "\(sent)")
        #expect(sent.contains("come from the MCP server docs (skill://pdf-tools/forms/SKILL.md)") && sent.contains("Do it well."), "\(sent)")
        #expect(sent.hasSuffix("fill the tax form"), "\(sent)")
        #expect(Self.reads(log).contains("skill://pdf-tools/forms/SKILL.md"))

        let tampered = try home.run(["chat"] + model + ["/docs:digest-bad", "go"])
        #expect(tampered.status != 0)
        #expect(tampered.stderr.contains("chat: /docs:digest-bad could not be activated, so the message was not sent:") && tampered.stderr.contains("SKILL.md has SHA-256"), "\(tampered.stderr)")
        let unknown = try home.run(["chat"] + model + ["/docs:nothing-here", "go"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("/docs:nothing-here is not an enabled instruction skill") && unknown.stderr.contains("/docs:pdf-tools"), "\(unknown.stderr)")
        #expect(server.requests.count == 1, "a refused activation sends nothing to the model")
    }

    @Test(.timeLimit(.minutes(5)))
    func approvedANestedSkillActivatesAndAScriptRunsConfined() throws {
        let home = Home()
        let log = try addServer(home)
        let calls = [
            Self.call("a", "activate_skill", ["name": "docs:pdf-tools/forms"]),
            Self.call("b", "activate_skill", ["name": "docs:runner"]),
            Self.call("c", "run_skill_script", ["name": "docs:runner", "path": "scripts/hello.sh", "args": ["mars"]]),
        ]
        let server = try Self.model(calling: calls)
        defer { server.stop() }
        let chat = try home.run(["chat", "--json", "--yes", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "run it"])
        #expect(chat.status == 0, "\(chat.stderr)")
        let offered = server.requests.first?.body?["tools"]?.arrayValue?.first { $0["function"]?["name"] == "run_skill_script" }
        #expect(offered?["function"]?["parameters"]?["properties"]?["name"]?["enum"]?.arrayValue?.contains("docs:runner") == true, "\(String(describing: offered))")
        let results = Self.toolResults(server)
        #expect(results["a"]?.contains("Do it well.") == true, "approved (--yes), the nested skill activates: \(results["a"] ?? "")")
        #expect(results["b"]?.contains("run_skill_script") == true, "\(results["b"] ?? "")")
        #expect(results["c"]?.contains("hello from mars") == true, "\(results["c"] ?? "")")
        #expect(results["c"]?.contains("greeting.txt") == true, "it wrote into the session's workspace: \(results["c"] ?? "")")
        #expect(Self.reads(log).contains("skill://runner/scripts/hello.sh"))
        // The fetched files sit in the server's cache folder, outside every skills folder; removing the server removes them.
        #expect(FileManager.default.fileExists(atPath: home.root + "/cache/mcp-skills/docs"))
        #expect(try home.run(["remove", "docs"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: home.root + "/cache/mcp-skills/docs"))
    }

    @Test(.timeLimit(.minutes(5)))
    func skillhostServingSkillhostAndTheReexport() throws {
        let home = Home()
        _ = try addServer(home)
        // The remote: our own `skillhost mcp` serving one instruction skill from a folder of its own.
        let remote = TestPackage.temporaryDirectory("mcp-skills-remote")
        try TestPackage.write("---\nname: tz-notes\ndescription: Notes on time zones\nlicense: MIT\n---\n\n# Zones\nSee references/list.md.\n", to: remote + "/skills/tz-notes/SKILL.md")
        try TestPackage.write("UTC, JST\n", to: remote + "/skills/tz-notes/references/list.md")
        let binary = try TestPackage.skillhostBinary()
        // Its Swift runtime is read-only in its sandbox (a debug build links the toolchain's).
        let runtime = (try? TestProcess.output("/usr/bin/ldd", [binary]))?.split(separator: "\n")
            .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("/") && $0.contains("libswiftCore.so") } }
            .first.map { String($0.dropLast("/libswiftCore.so".count)) }
        let added = try home.run(["add-mcp", "peer", "--read", remote] + (runtime.map { ["--read", $0] } ?? []) + [
            "--", binary, "mcp", "--skills", remote + "/skills", "--registry", remote + "/registry.json", "--plugins", remote + "/plugins",
            "--cache", remote + "/cache",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try home.json(["list", "--json"])
        let peer = listed["mcp_skills"]?.arrayValue?.first { $0["name"] == "peer:tz-notes" }
        #expect(peer?["status"] == "ok" && peer?["frontmatter"]?["license"] == "MIT", "\(listed)")

        // Our `skillhost mcp` re-exports both servers' skills, under skill://<server>/…, read by a Python client.
        let python = try Self.sdk.python()
        let environment: JSONValue = .object(JSONObject(home.environment.map { ($0.key, .string($0.value)) }))
        let global: JSONValue = .array(home.global.map(JSONValue.string))
        let result = try TestProcess.run(python, [
            TestPackage.root + "/Tests/Peers/mcp_skills_reexport_client.py", binary, environment.serialized(), global.serialized(),
            "skill://peer/tz-notes/references/list.md", "skill://docs/pdf-tools/references/guide.md", "skill://docs/digest-bad/SKILL.md",
        ])
        try Self.expectReexport(result, over: "stdio")

        // The same over Streamable HTTP: `skillhost mcp --http` re-exports them to a client with a token.
        let created = try home.run(["token", "create", "reader", "--scope", "read"])
        let token = try #require(created.stdout.split(separator: "\n").last.map(String.init), "\(created.stderr)")
        let logFile = home.root + "/http-server.log"
        FileManager.default.createFile(atPath: logFile, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = ["mcp", "--http", "127.0.0.1:0"] + home.global
        server.environment = home.environment
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        try server.run()
        defer {
            if server.isRunning { server.terminate() }
            server.waitUntilExit()
        }
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline, server.isRunning {
            let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: "serving http://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            } else {
                usleep(50_000)
            }
        }
        let serving = try #require(port, "the HTTP server did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
        let overHTTP = try TestProcess.run(python, [
            TestPackage.root + "/Tests/Peers/mcp_skills_reexport_client.py", "--http", "http://127.0.0.1:\(serving)/mcp", token,
            "skill://peer/tz-notes/references/list.md", "skill://docs/pdf-tools/references/guide.md", "skill://docs/digest-bad/SKILL.md",
        ])
        try Self.expectReexport(overHTTP, over: "HTTP")
    }

    /// What a client reading the re-export gets: both servers' good skills, none refused, each file verified.
    static func expectReexport(_ result: ProcessResult, over transport: String) throws {
        #expect(result.status == 0, "\(transport): \(result.stderr)")
        let output = try JSONValue(parsing: Array(result.stdout.utf8))
        let uris = output["skills"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        #expect(uris.contains("skill://peer/tz-notes/SKILL.md") && uris.contains("skill://docs/pdf-tools/SKILL.md"), "\(transport): \(uris)")
        #expect(!uris.contains("skill://docs/many/SKILL.md") && !uris.contains("skill://docs/dyn/SKILL.md"), "\(transport): refused skills are not re-exported")
        let reads = output["reads"]
        #expect(reads?["skill://peer/tz-notes/references/list.md"] == "UTC, JST\n", "\(transport): \(String(describing: reads))")
        #expect(reads?["skill://docs/pdf-tools/references/guide.md"] == "The guide says: use blue ink.\n", "\(transport)")
        #expect(reads?["skill://docs/digest-bad/SKILL.md"]?.stringValue?.contains("has SHA-256") == true, "\(transport): the re-export verifies too: \(String(describing: reads))")
    }
}
