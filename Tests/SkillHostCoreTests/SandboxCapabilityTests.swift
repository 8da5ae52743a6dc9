import Foundation
import Synchronization
@testable import SkillHostCore
import SkillJSON
import Testing

/// Manifest `capabilities`, registry narrowing and grants, the policy a worker gets, and `grant`.
@Suite("Sandbox capabilities")
struct SandboxCapabilityTests {
    static let declared: JSONValue = [
        "filesystem": [
            ["root": "data", "access": "read-write"],
            ["root": "config", "key": "calendar_file", "access": "read-write"],
            ["root": "home", "path": "Documents", "access": "read"],
        ],
        "network": ["tcp_connect": [443, 8080]],
        "processes": false,
    ]

    static func manifest(_ capabilities: JSONValue?, skill: JSONValue? = nil) -> JSONValue {
        ManifestValidatorTests.manifest { root in
            root["capabilities"] = capabilities
            if let skill { ManifestValidatorTests.setSkill(&root, "capabilities", skill) }
        }
    }

    @Test("the agreed manifest shape is read into typed capabilities")
    func readsAgreedShape() throws {
        let manifest = try ManifestValidator.validate(Self.manifest(Self.declared), file: "/p.so")
        #expect(manifest.capabilities.network == .tcpConnect([443, 8080]))
        #expect(manifest.capabilities.processes == false)
        #expect(manifest.capabilities.capabilities.map(\.description)
            == ["config:calendar_file:read-write", "home:Documents:read", "network:tcp:443", "network:tcp:8080"])
    }

    @Test("absent capabilities mean the data folder only")
    func absentIsMinimal() throws {
        #expect(try ManifestValidator.validate(Self.manifest(nil), file: "/p.so").capabilities == .minimal)
    }

    static let malformedCases: [(JSONValue, String)] = {
        var cases: [(JSONValue, String)] = []
        let network: JSONValue = ["network": "some"]
        cases.append((network, "/capabilities/network"))
        let port: JSONValue = ["network": ["tcp_connect": [0]]]
        cases.append((port, "/capabilities/network/tcp_connect"))
        let processes: JSONValue = ["processes": "yes"]
        cases.append((processes, "/capabilities/processes"))
        let unknown: JSONValue = ["sockets": true]
        cases.append((unknown, "/capabilities/sockets"))
        let upward: JSONValue = ["filesystem": [["root": "home", "path": "../etc", "access": "read"]]]
        cases.append((upward, "/capabilities/filesystem/0/path"))
        let absolute: JSONValue = ["filesystem": [["root": "home", "path": "/etc", "access": "read"]]]
        cases.append((absolute, "/capabilities/filesystem/0/path"))
        let noKey: JSONValue = ["filesystem": [["root": "config", "access": "read"]]]
        cases.append((noKey, "/capabilities/filesystem/0/key"))
        let root: JSONValue = ["filesystem": [["root": "tmp", "access": "read"]]]
        cases.append((root, "/capabilities/filesystem/0/root"))
        let access: JSONValue = ["filesystem": [["root": "home", "path": "x", "access": "write"]]]
        cases.append((access, "/capabilities/filesystem/0/access"))
        let notArray: JSONValue = ["filesystem": "home"]
        cases.append((notArray, "/capabilities/filesystem"))
        cases.append(("everything", "/capabilities"))
        return cases
    }()

    @Test("each malformed capability is one problem naming its JSON pointer", arguments: malformedCases)
    func malformed(_ capabilities: JSONValue, pointer: String) {
        let problems = ManifestValidatorTests.problems(Self.manifest(capabilities))
        #expect(problems.map(\.pointer) == [pointer], "\(problems)")
        #expect(problems.allSatisfy { !$0.message.contains("\n") })
    }

    @Test("a skill may narrow its plugin's capabilities but not widen them")
    func skillSubset() throws {
        let narrower = try ManifestValidator.validate(
            Self.manifest(Self.declared, skill: ["network": ["tcp_connect": [443]]]), file: "/p.so")
        #expect(narrower.skills[0].capabilities?.network == .tcpConnect([443]))
        let problems = ManifestValidatorTests.problems(Self.manifest(Self.declared, skill: ["network": "any", "processes": true]))
        #expect(problems.map(\.pointer) == ["/skills/0/capabilities"])
        #expect(problems.first?.message.contains("network:any, processes") == true, "\(problems)")
    }

    @Test("capability words round-trip and bad words are refused")
    func words() {
        for word in ["processes", "network:any", "network:tcp:443", "home:Documents:read", "config:calendar_file:read-write"] {
            #expect(Capability(word)?.description == word)
        }
        for word in ["network:tcp:0", "network:udp:53", "home:../x:read", "home:/etc:read", "config::read", "root", ""] {
            #expect(Capability(word) == nil, "\(word)")
        }
    }

    @Test("the registry narrows the manifest, never widens it; grants widen it")
    func narrowingAndGrants() throws {
        let declared = try ManifestValidator.validate(Self.manifest(Self.declared), file: "/p.so").capabilities
        var settings = PluginSettings()
        settings.capabilityLimit = PluginCapabilities(
            filesystem: [.init(root: .home, path: "Documents", access: .readWrite)], network: .any, processes: true)
        let narrowed = SandboxPolicy.effectiveCapabilities(declared: declared, settings: settings)
        #expect(narrowed.network == .tcpConnect([443, 8080]))
        #expect(narrowed.processes == false)
        #expect(narrowed.filesystem == [.init(root: .home, path: "Documents", access: .read)])
        settings.grants = [.processes, .tcpConnect(22)]
        let granted = SandboxPolicy.effectiveCapabilities(declared: declared, settings: settings)
        #expect(granted.processes)
        #expect(granted.network == .tcpConnect([443, 8080, 22]))
    }

    @Test("the policy resolves data, home and configured paths; unset configuration grants nothing")
    func resolvesPaths() {
        let capabilities = PluginCapabilities(filesystem: [
            .init(root: .config, key: "calendar_file", access: .readWrite), .init(root: .config, key: "missing", access: .read),
            .init(root: .home, path: "Documents", access: .read),
        ])
        let policy = SandboxPolicy.resolve(
            capabilities: capabilities, mode: .required, dataDirectory: "/d/cal",
            configuration: ["calendar_file": "~/cal.ics"], home: "/home/u")
        // A read-write file directly in the home folder is granted alone, never the whole home folder.
        #expect(policy.rules == [
            .init(path: "/d/cal", access: .readWrite), .init(path: "/home/u/cal.ics", access: .readWrite),
            .init(path: "/home/u/Documents", access: .read),
        ])
        // In a folder of its own, a read-write file is granted through that folder (temp + rename needs it).
        let own = SandboxPolicy.resolve(
            capabilities: capabilities, mode: .required, dataDirectory: "/d/cal",
            configuration: ["calendar_file": "~/Calendars/work.ics"], home: "/home/u")
        #expect(own.rules.contains(.init(path: "/home/u/Calendars", access: .readWrite)))
        #expect(!own.rules.contains { $0.path == "/home/u" })
        let (parsed, rest) = SandboxPolicy.parse(workerArguments: ["/p.so"] + policy.workerArguments)
        #expect(parsed == policy)
        #expect(rest == ["/p.so"])
    }

    @Test("registry sandbox, capabilities and grants are checked with the pointer and a fix")
    func registryMembers() throws {
        func error(_ entry: JSONValue) -> HostError? {
            do {
                _ = try Registry(document: ["plugins": ["cal": entry]], file: "/r.json")
                return nil
            } catch {
                return error
            }
        }
        #expect(error(["sandbox": "sometimes"])?.message.contains("/plugins/cal/sandbox must be \"required\", \"best-effort\" or \"off\"") == true)
        #expect(error(["grants": ["network:udp:53"]])?.message.contains("/plugins/cal/grants/0") == true)
        #expect(error(["capabilities": ["network": 5]])?.message.contains("/plugins/cal/capabilities/network") == true)
        let registry = try Registry(
            document: ["plugins": ["cal": ["sandbox": "best-effort", "grants": ["processes"], "capabilities": ["network": "none"]]]],
            file: "/r.json")
        let settings = registry.pluginSettings("cal")
        #expect(settings.sandbox == .bestEffort)
        #expect(settings.grants == [.processes])
        #expect(settings.capabilityLimit == .minimal)
    }

    @Test("on a kernel without Landlock the host says so once, and refuses 'required' with the remedy")
    func noLandlockGate() throws {
        let lines = Mutex<[String]>([])
        let gate = SandboxGate(landlockABI: 0, warn: { line in lines.withLock { $0.append(line) } })
        let skill = SkillDescription(
            id: "cal.add", title: "Add", description: "Adds.", parameters: ["type": "object"], permission: .read,
            timeout: 5, idempotent: true, examples: [], pluginID: "cal", pluginPath: "/p/cal.so", enabled: true, approval: .allow)
        var plugin = PluginRecord(id: "cal", path: "/p/cal.so", status: .ok, enabled: true)
        try gate.check(skill, plugin: plugin)
        try gate.check(skill, plugin: plugin)
        #expect(lines.withLock { $0 } == [SandboxGate.noLandlockNotice])
        plugin.settings.sandbox = .required
        #expect(throws: HostError.self) { try gate.check(skill, plugin: plugin) }
        plugin.settings.sandbox = .off
        try gate.check(skill, plugin: plugin)
    }

    /// The installed `skillhost` links the Swift runtime statically, so no libswiftCore.so is mapped in its
    /// workers; the sandbox must still let Swift plugins load the toolchain's runtime (found from the
    /// `swift` on PATH or the usual places, never from the plugin's RUNPATH).
    @Test("a static worker still finds the toolchain's Swift runtime folder for the sandbox")
    func runtimeFolderWithoutAMappedRuntime() throws {
        let folder = try #require(SandboxEntry.swiftRuntimeFolder(mapped: []))
        #expect(FileManager.default.fileExists(atPath: folder + "/linux/libswiftCore.so"))
        #expect(SandboxEntry.swiftRuntimeFolder(mapped: ["/x/lib/swift/linux/libswiftCore.so"]) == "/x/lib/swift")
    }
}
