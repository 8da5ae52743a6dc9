import CSkillABI
import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Loads fixture variants into the test process (the host itself only does this in its scanner and worker
/// children, or for in-process plugins).
@Suite("Loading a plugin and checking its descriptor")
struct PluginLibraryTests {
    func loadError(_ defines: [String]) throws -> String {
        let path = try HostTestSupport.fixturePlugin(defines)
        do {
            _ = try PluginLibrary.load(path: path)
            Issue.record("\(defines) loaded")
            return ""
        } catch {
            #expect(error.kind == .invalidPlugin)
            #expect(error.message.hasPrefix(path))
            return error.message
        }
    }

    @Test("wrong magic is refused before anything else is read")
    func wrongMagic() throws {
        #expect(try loadError(["DESCRIPTOR_MAGIC=0x12345678", "DESCRIPTOR_MAJOR=7"]).contains("magic is 0x12345678"))
    }

    @Test("another ABI major is refused, naming both versions")
    func wrongMajor() throws {
        let message = try loadError(["DESCRIPTOR_MAJOR=2"])
        #expect(message.contains("ABI 2.0"))
        #expect(message.contains("ABI 1.x"))
    }

    @Test("a descriptor smaller than ABI 1.0's is refused, naming both sizes")
    func smallerStruct() throws {
        let message = try loadError(["DESCRIPTOR_SIZE=24"])
        #expect(message.contains("struct_size is 24 bytes"))
        #expect(message.contains("\(MemoryLayout<skill_plugin_descriptor>.size)"))
    }

    @Test("a library without skill_plugin_entry is refused, naming the symbol")
    func missingSymbol() throws {
        let message = try loadError(["NO_ENTRY"])
        #expect(message.contains("does not export skill_plugin_entry"))
        #expect(message.contains("not `public`"), "names the usual cause in Swift")
    }

    @Test("an entry point that returns NULL is refused")
    func nullDescriptor() throws {
        #expect(try loadError(["NULL_DESCRIPTOR"]).contains("returned NULL"))
    }

    @Test("a good plugin loads once per path and runs a skill with the call context")
    func loadAndInvoke() throws {
        let path = try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"direct\""])
        let library = try PluginLibrary.load(path: path)
        #expect(try PluginLibrary.load(path: path) === library)
        let manifest = try JSONValue(parsing: library.manifestBytes)
        #expect(manifest["id"] == "direct")
        let context = PluginCallContext(
            callID: "call-1", sessionID: "session-9", dataDirectory: NSTemporaryDirectory(), log: { _, _ in })
        let result = library.invoke(skillID: "direct.echo", arguments: Array("{\"text\":\"hi\"}".utf8), context: context)
        #expect(result.status == SKILL_STATUS_OK)
        let value = try result.value(skillID: "direct.echo", pluginID: "direct")
        #expect(value == ["echo": ["text": "hi"], "call_id": "call-1", "session_id": "session-9"])
    }

    @Test("context_get and context_set reach the session context; log lines reach the handler")
    func sessionContext() throws {
        let library = try PluginLibrary.load(path: try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"direct\""]))
        let session = SessionContext(["last": ["seen": 1]])
        let lines = LockedLines()
        let context = PluginCallContext(
            callID: "c", dataDirectory: NSTemporaryDirectory(), sessionContext: session, log: { lines.append("\($0) \($1)") })
        let result = library.invoke(skillID: "direct.context", arguments: Array("{\"next\":2}".utf8), context: context)
        #expect(try result.value(skillID: "direct.context", pluginID: "direct") == ["seen": 1])
        #expect(session.value(forKey: "last") == ["next": 2])
        #expect(lines.all == ["1 context stored"])
    }

    @Test("plugin status codes map to host error kinds with the plugin's message and remedy")
    func statusMapping() throws {
        let failed = PluginResult(status: SKILL_STATUS_FAILED, bytes: Array(#"{"message":"disk full","remedy":"free space"}"#.utf8))
        #expect(throws: HostError.self) { try failed.value(skillID: "a.b", pluginID: "a") }
        do {
            _ = try failed.value(skillID: "a.b", pluginID: "a")
        } catch {
            #expect(error.kind == .skillFailed)
            #expect(error.message == "skill a.b failed: disk full; free space")
        }
        let kinds: [(Int32, HostError.Kind)] = [
            (SKILL_STATUS_INVALID_ARGUMENTS, .invalidArguments), (SKILL_STATUS_NOT_FOUND, .notFound),
            (SKILL_STATUS_CANCELLED, .cancelled), (SKILL_STATUS_TIMEOUT, .timeout),
            (SKILL_STATUS_PERMISSION_DENIED, .denied), (SKILL_STATUS_INTERNAL, .skillFailed), (99, .skillFailed),
        ]
        for (status, kind) in kinds {
            do {
                _ = try PluginResult(status: status, bytes: []).value(skillID: "a.b", pluginID: "a")
                Issue.record("status \(status) did not throw")
            } catch {
                #expect(error.kind == kind)
            }
        }
    }
}

/// Collects strings from several threads.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
