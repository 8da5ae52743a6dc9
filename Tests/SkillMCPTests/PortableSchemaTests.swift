import Foundation
import JSONSchema
import SkillJSON
import Testing

/// Every bundled tool, as `skillhost mcp` lists it, stays in a subset every consumer takes: portable names
/// (`[A-Za-z0-9_-]{1,64}`), patterns without backslash escapes, optional members that accept `null` ("not
/// given"), and schemas that llama-cpp-python's JSON-Schema-to-grammar converter and the Agents SDK's strict
/// conversion both take (Tests/Peers/schema_portability.py). The strict schema of a tool without required
/// members accepts the instance a strict model sends when it gives nothing: every member null.
@Suite(.serialized) struct PortableSchemaTests {
    /// llama-cpp-python's pure-Python grammar module, taken from the package's sdist on PyPI (no C++ build)
    /// into `.build/peers/llama-grammar/`.
    static func llamaGrammar() throws -> String {
        let folder = TestPackage.root + "/.build/peers/llama-grammar"
        let module = folder + "/llama_grammar.py"
        if FileManager.default.fileExists(atPath: module) { return module }
        try FileManager.default.createDirectory(atPath: folder + "/sdist", withIntermediateDirectories: true)
        let download = try TestProcess.run("/usr/bin/env", [
            "python3", "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-binary", "llama-cpp-python",
            "llama-cpp-python==0.3.36", "-d", folder + "/sdist",
        ])
        try #require(download.status == 0, "pip download llama-cpp-python: \(download.stderr)")
        let extract = try TestProcess.run("/usr/bin/env", [
            "python3", "-c",
            """
            import glob, sys, tarfile
            archive = tarfile.open(glob.glob(sys.argv[1] + "/llama_cpp_python-*.tar.gz")[0])
            member = next(m for m in archive.getmembers() if m.name.endswith("/llama_cpp/llama_grammar.py"))
            open(sys.argv[2], "wb").write(archive.extractfile(member).read())
            """,
            folder + "/sdist", module,
        ])
        try #require(extract.status == 0, "extracting llama_grammar.py: \(extract.stderr)")
        return module
    }

    /// `tools/list` of `skillhost mcp` over every bundled plugin (the Swift ones and the C sysinfo).
    static func bundledTools() throws -> JSONValue {
        let root = TestPackage.temporaryDirectory("skillhost-portable-schemas")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        for plugin in ["CalendarSkill", "ClockSkill", "FilesSkill", "RemindersSkill", "TextSkill"] {
            try FileManager.default.copyItem(atPath: TestPackage.buildDirectory + "/lib\(plugin).so", toPath: root + "/plugins/lib\(plugin).so")
        }
        let sysinfo = try CFixtureCompiler.compile(
            [TestPackage.root + "/Plugins/sysinfo/sysinfo.c"], flags: ["-fPIC", "-shared", "-I", TestPackage.root + "/Sources/CSkillABI/include"],
            name: "sysinfo.so")
        try FileManager.default.copyItem(atPath: sysinfo, toPath: root + "/plugins/sysinfo.so")
        let input = """
            {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}

            """
        let result = try TestProcess.run(try TestPackage.skillhostBinary(), [
            "mcp", "--plugins", root + "/plugins", "--registry", root + "/registry.json", "--cache", root + "/cache", "--skills", root + "/skills",
        ], environment: ["XDG_DATA_HOME": root + "/data", "SKILLHOST_STATE": root + "/state", "PATH": "/usr/bin:/bin"], stdin: input)
        let line = try #require(result.stdout.split(separator: "\n").first.map(String.init), "\(result.stderr)")
        return try #require(try JSONValue(parsing: line)["result"])
    }

    @Test(.timeLimit(.minutes(4))) func everyBundledToolSchemaIsPortable() throws {
        let listing = try Self.bundledTools()
        let tools = try #require(listing["tools"]?.arrayValue)
        try #require(tools.count >= 20, "every bundled skill is served (\(tools.count))")
        var nullables = 0
        for tool in tools {
            let name = tool["name"]?.stringValue ?? "?"
            #expect(name.range(of: "^[A-Za-z0-9_-]{1,64}$", options: .regularExpression) != nil, "\(name) is a portable name")
            let schema = try #require(tool["inputSchema"])
            #expect(!schema.serialized().contains(#"\\"#), "\(name): no backslash escapes (write [.] for a dot)")
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (member, property) in schema["properties"]?.objectValue ?? [:] where !required.contains(member) {
                let compiled = try Schema(compiling: property)
                #expect(compiled.isValid(.null), "\(name).\(member): an optional member accepts null")
                nullables += 1
            }
        }
        #expect(nullables > 20)

        // llama-cpp-python's grammar converter and the Agents SDK's strict conversion take every schema.
        let file = TestPackage.temporaryDirectory("skillhost-portable-tools") + "/tools.json"
        try listing.serialized().write(toFile: file, atomically: true, encoding: .utf8)
        let python = try AgentsPeer.python()
        let script = TestPackage.root + "/Tests/Peers/schema_portability.py"
        let result = try TestProcess.run(python, [script, file, try Self.llamaGrammar()])
        #expect(result.status == 0, "\(result.stderr.suffix(3000))")
        let report = try JSONValue(parsing: result.stdout)
        #expect(report["failures"] == [], "\(report["failures"]?.serialized() ?? "")")
        #expect(report["tools"] == .int(Int64(tools.count)))
        // A strict model that gives nothing sends every member as null: the strict schema and the host's
        // original schema both accept it.
        for tool in tools where (tool["inputSchema"]?["required"]?.arrayValue ?? []).isEmpty {
            let name = tool["name"]?.stringValue ?? "?"
            let members = tool["inputSchema"]?["properties"]?.objectValue?.keys.map { ($0, JSONValue.null) } ?? []
            let instance = JSONValue.object(JSONObject(members))
            let strict = try #require(report["strict"]?[name], "\(name) has a strict schema")
            #expect(try Schema(compiling: strict).isValid(instance), "\(name): the strict schema accepts all-null")
            #expect(try Schema(compiling: try #require(tool["inputSchema"])).isValid(instance), "\(name): the host accepts all-null")
        }
    }
}

/// The OpenAI Agents SDK peer (`.build/peers/agents`), shared with the Agents SDK test.
enum AgentsPeer {
    static let environment = PythonVirtualEnvironment(name: "agents", packages: ["openai-agents==0.24.0"], probe: "import agents.mcp")
    static func python() throws -> String { try environment.python() }
}
