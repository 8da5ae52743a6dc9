import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// SHA-256 pinning, the trust policy and file permission checks.
@Suite("Trust")
struct TrustTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skillhost-trust-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        return path
    }

    private func file(_ text: String, in folder: String, mode: mode_t = 0o644) throws -> String {
        let path = folder + "/libplugin.so"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test("SHA-256 matches the FIPS 180-2 test vectors")
    func knownVectors() throws {
        #expect(FileDigest.sha256(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileDigest.sha256(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let path = try file("abc", in: try folder())
        #expect(try FileDigest.sha256(ofFile: path) == FileDigest.sha256(of: Array("abc".utf8)))
    }

    @Test("a file larger than the read buffer hashes like its bytes")
    func largeFile() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try folder() + "/big.so"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try FileDigest.sha256(ofFile: path) == FileDigest.sha256(of: bytes))
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: HostError.self) { try FileDigest.sha256(ofFile: "/nonexistent/libx.so") }
    }

    @Test("a pinned plugin runs while unchanged and is refused after one byte changes, with both hashes")
    func changedFileRefused() throws {
        let path = try file("plugin bytes v1", in: try folder())
        let verifier = TrustVerifier()
        let pinned = try FileDigest.sha256(ofFile: path)
        #expect(try verifier.verify(pluginID: "p", pluginPath: path, pinnedSHA256: pinned, policy: .required) == .trusted)
        try Data("plugin bytes v2".utf8).write(to: URL(fileURLWithPath: path))
        let actual = try FileDigest.sha256(ofFile: path)
        do {
            _ = try verifier.verify(pluginID: "p", pluginPath: path, pinnedSHA256: pinned, policy: .warn)
            Issue.record("a changed file was accepted")
        } catch {
            #expect(error.kind == .denied)
            #expect(error.message.contains(pinned) && error.message.contains(actual), "\(error.message)")
            #expect(error.message.contains("skillhost trust p"))
        }
    }

    @Test("untrusted plugins run with a warning under warn and are refused under required")
    func policy() throws {
        let path = try file("x", in: try folder())
        let verifier = TrustVerifier()
        let verdict = try verifier.verify(pluginID: "p", pluginPath: path, pinnedSHA256: nil, policy: .warn)
        guard case .untrusted(let warning) = verdict else {
            Issue.record("expected a warning, got \(verdict)")
            return
        }
        #expect(warning.contains("skillhost trust p") && !warning.contains("\n"))
        #expect(throws: HostError.self) {
            try verifier.verify(pluginID: "p", pluginPath: path, pinnedSHA256: nil, policy: .required)
        }
    }

    @Test("the trust policy reads warn and required and rejects anything else")
    func policyValues() throws {
        #expect(try TrustPolicy(registryValue: nil) == .warn)
        #expect(try TrustPolicy(registryValue: "required") == .required)
        #expect(throws: HostError.self) { try TrustPolicy(registryValue: "yes") }
    }

    @Test("a plugin file others can write is refused with the chmod that fixes it")
    func worldWritableFile() throws {
        let path = try file("x", in: try folder(), mode: 0o666)
        do {
            try FilePermissionCheck.verify(pluginPath: path, pluginID: "p")
            Issue.record("a world-writable file was accepted")
        } catch {
            #expect(error.kind == .denied)
            #expect(error.message.contains("chmod go-w \(path)"), "\(error.message)")
        }
    }

    @Test("a plugin folder the group can write is refused")
    func groupWritableFolder() throws {
        let directory = try folder()
        let path = try file("x", in: directory)
        chmod(directory, 0o770)
        do {
            try FilePermissionCheck.verify(pluginPath: path, pluginID: "p")
            Issue.record("a group-writable folder was accepted")
        } catch {
            #expect(error.kind == .denied)
            #expect(error.message.contains("folder \(directory)") && error.message.contains("chmod go-w \(directory)"))
        }
    }

    @Test("a private file in a private folder passes")
    func safePermissions() throws {
        let path = try file("x", in: try folder(), mode: 0o755)
        try FilePermissionCheck.verify(pluginPath: path, pluginID: "p")
    }

    @Test("the gate warns once per plugin and refuses a changed trusted plugin")
    func gate() throws {
        let directory = try folder()
        let path = try file("gate v1", in: directory)
        let warnings = WarningLog()
        let gate = TrustGate(pluginsFolder: directory, policy: { .warn }, warn: { warnings.append($0) })
        let skill = SkillDescription(
            id: "p.s", title: "S", description: "d", parameters: ["type": "object"], permission: .read, timeout: 5,
            idempotent: true, examples: [], pluginID: "p", pluginPath: path, enabled: true, approval: .allow)
        var plugin = PluginRecord(id: "p", path: path, status: .ok, enabled: true)
        try gate.check(skill, plugin: plugin)
        try gate.check(skill, plugin: plugin)
        #expect(warnings.lines.count == 1)
        plugin.settings.sha256 = FileDigest.sha256(of: Array("gate v0".utf8))
        #expect(throws: HostError.self) { try gate.check(skill, plugin: plugin) }
    }
}

/// Collects warning lines from a gate (thread-safe).
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
}
