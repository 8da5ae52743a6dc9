import Foundation
import Testing

/// proxy.py, a forward proxy from PyPI (CONNECT tunnels, absolute-form forwarding, Basic proxy
/// authentication), installed into `.build/peers/proxy.py` by the test itself when missing, and run on
/// 127.0.0.1 with a port of its choosing. A peer we did not write: its reading of the proxy protocol is the
/// test of ours.
final class ProxyPeer: Sendable {
    /// proxy.py in `.build/peers/proxy.py`, at the version the expectations were checked against.
    static let environment = PythonVirtualEnvironment(
        name: "proxy.py", packages: ["proxy.py==2.4.10"], probe: "import proxy")

    /// The port it listens on.
    let port: Int
    private let process: Process
    private let folder: String

    /// The virtual environment's python, created and filled on first use.
    static func python() throws -> String { try environment.python() }

    /// Starts proxy.py; with `credentials` (`user:password`) it answers 407 to requests without them.
    init(credentials: String? = nil) throws {
        let python = try Self.python()
        folder = NSTemporaryDirectory() + "skillhost-proxy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let portFile = folder + "/port"
        process = Process()
        // Foundation starts it as the leader of a process group of its own; stopping signals the whole group,
        // so proxy.py's acceptor processes stop too (one left running would keep Process from seeing the exit).
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [
                "-m", "proxy", "--hostname", "127.0.0.1", "--port", "0", "--port-file", portFile, "--num-acceptors", "1",
                "--num-workers", "1", "--log-level", "ERROR",
            ] + (credentials.map { ["--basic-auth", $0] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: 30 s for a loaded machine.
        guard let found = PortFile.wait(for: portFile, from: process, seconds: 30) else {
            kill(-process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw PeerFailure(description: "proxy.py did not start within 30 s")
        }
        port = found
    }

    deinit {
        stop()
    }

    /// Stops the proxy's process group: SIGINT (proxy.py ignores SIGTERM), then SIGKILL after 5 s.
    func stop() {
        if process.isRunning {
            let group = -process.processIdentifier
            kill(group, SIGINT)
            for _ in 0..<50 where process.isRunning { usleep(100_000) }
            if process.isRunning { kill(group, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `http://[credentials@]127.0.0.1:port`.
    func url(credentials: String? = nil) -> String {
        "http://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)"
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var description: String
    }
}
