import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

/// Where `swift build --package-path Tests/Fixtures/ThirdPartySkill` puts the plugin.
let thirdPartyPluginPath =
    PluginLibrary.repositoryRoot + "/Tests/Fixtures/ThirdPartySkill/.build/debug/libThirdPartySkill.so"

/// The separate package under Tests/Fixtures/ThirdPartySkill, built by scripts/test.sh with
/// `swift build --package-path Tests/Fixtures/ThirdPartySkill` (a nested `swift build` inside `swift test`
/// would wait on the build lock, so these tests run only when that build exists).
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: thirdPartyPluginPath), "build Tests/Fixtures/ThirdPartySkill first"))
struct ThirdPartyPluginTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary(path: thirdPartyPluginPath) }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestComesFromItsOwnSDKCopy() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "units")
        #expect(manifest["version"] == "0.3.0")
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
    }

    @Test func unitsDeclareTheNamesPeopleUse() throws {
        let manifest = try plugin.manifest()
        let from = manifest["skills"]?.arrayValue?.first?["parameters"]?["properties"]?["from"]
        #expect(from?["enum"]?.arrayValue?.count == 15)
        let km = from?["anyOf"]?.arrayValue?.first { $0["const"] == "km" }
        #expect(km?["title"] == "kilometre")
        #expect(km?["description"] == "kilometre, kilometer")
    }

    @Test func convertsTemperatures() async {
        let call = await plugin.call("units.convert", ["value": 212, "from": "F", "to": "C"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json == ["value": 100.0, "unit": "C"])
    }

    @Test func refusesToMixDimensions() async {
        let call = await plugin.call("units.convert", ["value": 1, "from": "mi", "to": "kg"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/to")
    }
}
