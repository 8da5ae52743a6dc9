import Foundation
import Testing

/// The `skillhost mcp` command line: bad flags are usage errors (exit 2) that say how to fix them, and the
/// server ends with 0 when stdin closes.
@Suite struct MCPCommandTests {
    static func skillhost(_ arguments: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = MCPTestSupport.packageRoot + "/.build/debug/skillhost"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "run 'swift build' first")
        let root = MCPTestSupport.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--plugins", root + "/plugins", "--registry", root + "/registry.json", "--cache", root + "/cache"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SKILLHOST_STATE": root + "/state"]) { $1 }
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test(arguments: [["--page-size", "0"], ["--page-size", "many"], ["extra"], ["--allow-everything"]])
    func badFlagsAreUsageErrors(_ flags: [String]) throws {
        let result = try Self.skillhost(["mcp"] + flags)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("skillhost: mcp:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func onlyProtocolLinesReachStdoutAndStdinClosingEndsTheServer() throws {
        let result = try Self.skillhost(["mcp", "--page-size", "1"], stdin: """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{}}}
            {"jsonrpc":"2.0","id":2,"method":"ping"}

            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""protocolVersion":"2024-11-05""#) == true)
        #expect(result.stderr.contains("initialized by"))  // the log went to stderr
    }
}
