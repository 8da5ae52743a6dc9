import Foundation
import Glibc
import Testing

/// A `skillhost mcp --http` process for tests: a root folder with the fixture plugin, an instruction skill
/// and a registry holding a write token and a read token, the server on a free loopback port (its stderr in
/// `root/server.log`), stopped with SIGTERM (or killed) by the test.
final class HTTPTestServer: @unchecked Sendable {
    let root: String
    let process: Process
    let port: Int
    let writeToken: String
    let readToken: String

    static var binary: String { MCPTestSupport.packageRoot + "/.build/debug/skillhost" }

    var url: String { "http://127.0.0.1:\(port)/mcp" }
    var globalOptions: [String] { Self.globalOptions(root) }
    var log: String { (try? String(contentsOfFile: root + "/server.log", encoding: .utf8)) ?? "" }

    static func globalOptions(_ root: String) -> [String] {
        ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache", "--skills", root + "/skills"]
    }

    /// A root folder with the fixture plugin (built with `defines`), the time-zones skill and two tokens.
    static func makeRoot(defines: [String] = ["OUTPUT_SCHEMAS"]) throws -> (root: String, write: String, read: String) {
        try #require(FileManager.default.isExecutableFile(atPath: binary), "run 'swift build' first")
        let root = MCPTestSupport.temporaryDirectory("skillhost-http-test")
        for folder in ["plugins", "skills", "config", "cache", "state"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: try HostTestSupport.fixturePlugin(defines), toPath: root + "/plugins/fixture.so")
        try FileManager.default.copyItem(atPath: MCPTestSupport.packageRoot + "/Plugins/Instructions/time-zones", toPath: root + "/skills/time-zones")
        let write = try token("writer", scope: "write", root: root)
        let read = try token("reader", scope: "read", root: root)
        return (root, write, read)
    }

    /// `skillhost token create NAME --scope SCOPE`: the token is the last line printed.
    static func token(_ name: String, scope: String, root: String) throws -> String {
        let result = try TestProcess.run(binary, ["token", "create", name, "--scope", scope] + globalOptions(root))
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(result.stdout.split(separator: "\n").last.map(String.init))
    }

    /// Starts a server on `root` (made when nil) with `arguments` besides `--http 127.0.0.1:0`.
    init(root existing: (root: String, write: String, read: String)? = nil, arguments: [String] = [], port requested: Int = 0) throws {
        let made = try existing ?? Self.makeRoot()
        root = made.root
        writeToken = made.write
        readToken = made.read
        let logFile = root + "/server.log"
        FileManager.default.createFile(atPath: logFile, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["mcp", "--http", "127.0.0.1:\(requested)", "--verbose"] + arguments + Self.globalOptions(root)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        try process.run()
        self.process = process
        var found: Int?
        let deadline = Date().addingTimeInterval(20)
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: "serving http://127.0.0.1:") ?? text.range(of: "serving https://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            throw TestFailure("the server did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    /// SIGTERM, and waits for the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// SIGKILL (a replica dying).
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }
}
