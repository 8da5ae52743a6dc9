import Foundation
import Testing

/// `skillhost mcp` against a client we did not write: the official Python `mcp` package (2.x), installed by
/// this test into `.build/peers/mcp` when missing, drives the built binary through its stdio client
/// (Tests/Peers/mcp_stdio_client.py): initialize, tools/list, tools/call, isError on bad arguments, a tool
/// with an outputSchema (its structured result accepted by the client, a non-conforming one isError),
/// progress during a long call, a call the client abandons (cancelled), a
/// refused write, the Skills extension's digests, list_changed after `skillhost disable` in another
/// process, and a malformed raw line.
@Suite(.serialized) struct PythonClientTests {
    static let peer = PythonVirtualEnvironment(name: "mcp", packages: ["mcp>=2"], probe: "import mcp.client.stdio")
    static var venv: String { peer.folder }

    /// The venv's python with `mcp` importable, installed on first use.
    static func python() throws -> String { try peer.python() }

    @Test(.timeLimit(.minutes(3))) func theOfficialPythonClientUsesTheServer() throws {
        let binary = MCPTestSupport.packageRoot + "/.build/debug/skillhost"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "run 'swift build' first")
        let python = try Self.python()
        let root = MCPTestSupport.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try HostTestSupport.fixturePlugin(["OUTPUT_SCHEMAS"]), toPath: root + "/plugins/fixture.so")
        // One real instruction skill, served through the Skills extension: the client checks its digests.
        try FileManager.default.createDirectory(atPath: root + "/skills", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: MCPTestSupport.packageRoot + "/Plugins/Instructions/time-zones",
                                         toPath: root + "/skills/time-zones")
        let script = MCPTestSupport.packageRoot + "/Tests/Peers/mcp_stdio_client.py"
        let result = try Self.run(python, [script, binary, root])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("all checks passed"), "\(result.output)")
        #expect(result.output.contains("list_changed"))
    }

    /// Runs a program to completion; stdout and stderr together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
