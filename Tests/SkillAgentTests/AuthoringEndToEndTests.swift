import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// Offline turns through the real host and real plugin files for this issue's parts: the files plugin
/// (configured with a root in the registry) and the third-party units plugin, whose unit enum declares
/// the names people type (`.choice`).
@Suite(.serialized) struct AuthoringEndToEndTests {
    static let packageRoot = HostEndToEndTests.packageRoot
    static let unitsPlugin = packageRoot + "/Tests/Fixtures/ThirdPartySkill/.build/debug/libThirdPartySkill.so"

    /// A host over a temporary folder with files.so and the units plugin; the files root holds notes.txt.
    static func makeHost() throws -> (host: SkillHost, root: String) {
        let helper = packageRoot + "/.build/debug/skillhost"
        let files = packageRoot + "/.build/plugins/files.so"
        guard FileManager.default.isExecutableFile(atPath: helper), FileManager.default.fileExists(atPath: files),
            FileManager.default.fileExists(atPath: unitsPlugin)
        else {
            throw HostEndToEndTests.SetupError(
                description: "missing \(helper), \(files) or \(unitsPlugin): run scripts/test.sh (it builds all three)")
        }
        let root = NSTemporaryDirectory() + "authoring-e2e-\(UUID().uuidString.prefix(8))"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/documents", withIntermediateDirectories: true)
        try manager.copyItem(atPath: files, toPath: root + "/plugins/files.so")
        try manager.copyItem(atPath: unitsPlugin, toPath: root + "/plugins/units.so")
        try "buy milk\ncall Anna\n".write(toFile: root + "/documents/notes.txt", atomically: true, encoding: .utf8)
        let registry: JSONValue = ["version": 1, "plugins": ["files": ["config": ["root": .string(root + "/documents")]]]]
        try registry.serialized().write(toFile: root + "/skill_registry.json", atomically: true, encoding: .utf8)
        let paths = HostPaths(
            plugins: root + "/plugins", registry: root + "/skill_registry.json", cache: root + "/cache", data: root + "/data")
        return (SkillHost(paths: paths, helperExecutable: helper), root)
    }

    static func turn(_ text: String) async throws -> [AgentEvent] {
        let (host, root) = try makeHost()
        let agent = Agent(provider: HostEndToEndTests.offline, backend: HostSkillBackend(host: host))
        let all = await events(of: agent, text)
        await host.shutdown()
        try? FileManager.default.removeItem(atPath: root)
        return all
    }

    static func results(_ all: [AgentEvent]) -> [(skill: String, result: JSONValue)] {
        all.compactMap { if case .skillSucceeded(let info, let result, _) = $0 { (info.skillID ?? "", result) } else { nil } }
    }

    @Test func convertsWhatPeopleTypeToTheUnitEnum() async throws {
        let all = try await Self.turn("convert 10 kilometers to miles")
        #expect(all.skillFailures == [])
        let results = Self.results(all)
        #expect(results.map(\.skill) == ["units.convert"])
        #expect(results.first?.result["unit"] == "mi")
        #expect(results.first?.result["value"]?.doubleValue == 6.213712)
    }

    @Test func readsAFileBelowTheConfiguredRoot() async throws {
        let all = try await Self.turn("read the file notes.txt")
        #expect(all.skillFailures == [])
        let results = Self.results(all)
        #expect(results.map(\.skill) == ["files.read"])
        #expect(results.first?.result["text"] == "buy milk\ncall Anna\n")
        #expect(all.answer?.contains("Read 19 of 19 bytes of notes.txt (utf-8).") == true, "\(all.answer ?? "")")
    }

    @Test func aPathLeavingTheRootIsRefusedThroughTheHost() async throws {
        let all = try await Self.turn("read the file ../skill_registry.json")
        #expect(Self.results(all).isEmpty)
        #expect(all.skillFailures.first?.message.contains("would leave the root") == true, "\(all.skillFailures)")
    }
}
