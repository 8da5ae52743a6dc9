import Foundation
import ICalendar
import Testing

/// Python's `icalendar` (and `recurring_ical_events` for recurrences), installed from PyPI into
/// `.build/peers/icalendar` by the test itself when missing, driven through
/// `Tests/Fixtures/ICalendar/peer/icalendar_peer.py`.
enum PythonPeer {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let fixtures = packageRoot + "/Tests/Fixtures/ICalendar"
    static let environment = packageRoot + "/.build/peers/icalendar"
    static let script = fixtures + "/peer/icalendar_peer.py"
    /// The versions the expectations were checked against.
    static let packages = ["icalendar==7.3.2", "recurring-ical-events==3.8.2"]

    private static let ready = NSLock()

    /// The virtual environment's python, created and filled on first use.
    static func python() throws -> String {
        ready.lock()
        defer { ready.unlock() }
        let python = environment + "/bin/python"
        let marker = environment + "/.skillhost-ready"
        if FileManager.default.fileExists(atPath: marker) { return python }
        try run("/usr/bin/env", ["python3", "-m", "venv", environment])
        try run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
        FileManager.default.createFile(atPath: marker, contents: Data())
        return python
    }

    /// The peer's reading of `file`, occurrences between two dates (UTC midnights).
    static func dump(_ file: String, from: CivilDateTime, to: CivilDateTime) throws -> PeerDump {
        let output = try run(try python(), [script, "dump", file, from.dateText, to.dateText])
        return try JSONDecoder().decode(PeerDump.self, from: Data(output.utf8))
    }

    /// A calendar the peer writes with its own API.
    static func write(_ file: String) throws {
        try run(try python(), [script, "write", file])
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerError(
                "\(executable) \(arguments.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    struct PeerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
