import CSkillABI
import SkillJSON
import SkillSDK
import Testing

@Suite struct ManifestTests {
    let manifest = TestSkills.plugin.manifest

    @Test func pluginFields() {
        #expect(manifest["id"] == "sdktest")
        #expect(manifest["name"] == "SDK test")
        #expect(manifest["version"] == "0.1.0")
        #expect(manifest["abi_version"] == "1.0")
        #expect(manifest["thread_safe"] == true)
        #expect(
            manifest["skills"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                "sdktest.greet", "sdktest.refuse", "sdktest.crash", "sdktest.wait", "sdktest.sleep", "sdktest.count",
                "sdktest.nan",
            ])
    }

    @Test func skillFieldsComeFromTheSkillType() throws {
        let greet = try #require(manifest["skills"]?.arrayValue?.first)
        #expect(greet["title"] == "Greet")
        #expect(greet["description"] == "Greets someone by name. Not for farewells.")
        #expect(greet["permission"] == "read")
        #expect(greet["timeout"] == .double(2.5))
        #expect(greet["idempotent"] == true)
        #expect(greet["examples"] == ["greet {name}", "say hello to {name} {times} times"])
        #expect(greet["summary"] == "Said {greeting}")
        #expect(
            greet["parameters"] == [
                "type": "object",
                "properties": [
                    "name": ["type": "string", "description": "Who to greet", "minLength": 1],
                    // Optional: null is "not given" (portable to strict-mode clients, docs/writing-skills.md).
                    "times": ["type": ["integer", "null"], "description": "Repeat count", "minimum": 1, "maximum": 3],
                ],
                "required": ["name"],
                "additionalProperties": false,
            ])
    }

    @Test func defaultsForPermissionTimeoutIdempotenceExamplesAndSummary() throws {
        let skills = try #require(manifest["skills"]?.arrayValue)
        let refuse = skills[1]
        let count = skills[5]
        let crash = skills[2]
        #expect(refuse["permission"] == "dangerous")
        #expect(refuse["idempotent"] == false)
        #expect(count["permission"] == "write")
        #expect(crash["timeout"] == .int(30))
        #expect(crash["timeout"]?.serialized() == "30")
        #expect(crash["examples"] == nil)
        #expect(crash["summary"] == nil, "a skill without a summary template leaves the member out")
    }

    @Test func descriptorCarriesTheSerializedManifest() throws {
        let descriptor = TestSkills.descriptor
        let bytes = UnsafeRawBufferPointer(
            start: descriptor.pointee.manifest_json, count: descriptor.pointee.manifest_json_length)
        #expect(try JSONValue(parsing: bytes) == manifest)
        #expect(descriptor.pointee.manifest_json[descriptor.pointee.manifest_json_length] == 0, "NUL-terminated")
    }
}
