import SkillJSON
import SkillSDK
import Testing

/// The SDK's typed capability builders write the agreed manifest JSON (issue #10).
@Suite("SDK capability builders")
struct CapabilitiesBuilderTests {
    @Test("a plugin's declared capabilities land in its manifest in the agreed shape")
    func pluginCapabilities() {
        let plugin = SkillPlugin(id: "cal", name: "Calendar", version: "1.0.0", description: "Dates.", skills: [])
            .declaring(.none.configuredPath("calendar_file", .readWrite).home("Documents", .read)
                .network(.tcpConnect([443])).processes())
        let expected: JSONValue = [
            "filesystem": [
                ["root": "config", "key": "calendar_file", "access": "read-write"],
                ["root": "home", "path": "Documents", "access": "read"],
            ],
            "network": ["tcp_connect": [443]],
            "processes": true,
        ]
        #expect(plugin.manifest["capabilities"] == expected)
    }

    @Test("no declaration, no member; .none declares the data folder only")
    func noneAndAbsent() {
        let plain = SkillPlugin(id: "t", name: "T", version: "1.0.0", description: "T.", skills: [])
        #expect(plain.manifest["capabilities"] == nil)
        #expect(plain.declaring(.none).manifest["capabilities"] == ["filesystem": [], "network": "none", "processes": false])
    }
}
