import CSkillABI
import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// ABI 1.x works in both directions (skill_abi.h, "Both directions"): a plugin built against a later minor
/// header, whose structs have grown, runs on this 1.0 host; and this host's plugins, C and Swift, run on a
/// host built against the grown header. The grown header is this one with a field appended to every
/// size-prefixed struct and SKILL_ABI_VERSION_MINOR 1.
@Suite("ABI 1.x forward and backward compatibility")
struct ABICompatibilityTests {
    static let fixtures = HostTestSupport.packageRoot + "/Tests/Fixtures/ABI"
    static let header10 = HostTestSupport.packageRoot + "/Sources/CSkillABI/include"

    /// A folder holding `skill_abi.h` as a 1.1 header would be: every struct one field longer.
    static let header11: String = {
        let folder = HostTestSupport.temporaryDirectory("abi-1.1")
        var text = (try? String(contentsOfFile: header10 + "/skill_abi.h", encoding: .utf8)) ?? ""
        for name in ["skill_host_api", "skill_call_context", "skill_result", "skill_plugin_descriptor"] {
            text = text.replacingOccurrences(of: "} \(name);", with: "    uint64_t added_in_1_1;\n} \(name);")
        }
        text = text.replacingOccurrences(of: "#define SKILL_ABI_VERSION_MINOR 0", with: "#define SKILL_ABI_VERSION_MINOR 1")
        try? text.write(toFile: folder + "/skill_abi.h", atomically: true, encoding: .utf8)
        return folder
    }()

    static func compile(_ source: String, header: String, shared: Bool, defines: [String] = []) throws -> String {
        let output = HostTestSupport.temporaryDirectory("abi-build") + (shared ? "/plugin.so" : "/host")
        var arguments = ["-std=c99", "-D_DEFAULT_SOURCE", "-Wall", "-Werror", "-I", header] + defines.map { "-D" + $0 }
        arguments += shared ? ["-fPIC", "-shared", "-fvisibility=hidden"] : []
        arguments += [fixtures + "/" + source, "-o", output] + (shared ? [] : ["-ldl"])
        let result = try HostTestSupport.run("/usr/bin/cc", arguments)
        guard result.status == 0 else { throw TestSetupError("cc \(source) failed: \(result.stderr)") }
        return output
    }

    @Test("the grown header really is bigger, so these tests compare two layouts")
    func grownHeaderGrows() throws {
        let host = try Self.compile("abi_host.c", header: Self.header11, shared: false)
        let plugin = try Self.compile("abi_grown_plugin.c", header: Self.header10, shared: true)
        let result = try HostTestSupport.run(host, [plugin, "grown.sizes", "{}"])
        #expect(result.status == 0, "\(result.stderr)")
        let sizes = try JSONValue(parsing: Array(result.stdout.utf8))
        #expect(sizes["result_size"] == .int(Int64(SKILL_RESULT_SIZE_1_0) + 8))
        #expect(sizes["context_size"] == .int(Int64(SKILL_CALL_CONTEXT_SIZE_1_0) + 8))
        #expect(sizes["minor"] == 0)
    }

    @Test("a plugin built against a 1.1 header loads and runs on this 1.0 host, writing no 1.1 field")
    func newerPluginOnThisHost() throws {
        let path = try Self.compile("abi_grown_plugin.c", header: Self.header11, shared: true,
                                    defines: ["SKILL_TEST_GROWN_HEADER"])
        let library = try PluginLibrary.load(path: path)
        let context = PluginCallContext(callID: "c", dataDirectory: NSTemporaryDirectory(), log: { _, _ in })
        let result = library.invoke(skillID: "grown.sizes", arguments: Array("{}".utf8), context: context)
        #expect(result.status == SKILL_STATUS_OK)
        let value = try result.value(skillID: "grown.sizes", pluginID: "grown")
        #expect(value["minor"] == 1)
        #expect(value["result_size"] == .int(Int64(SKILL_RESULT_SIZE_1_0)))
        #expect(value["wrote_grown_field"] == false)
    }

    @Test("a 1.1 plugin on a 1.1 host writes its 1.1 field")
    func newerPluginOnNewerHost() throws {
        let host = try Self.compile("abi_host.c", header: Self.header11, shared: false)
        let plugin = try Self.compile("abi_grown_plugin.c", header: Self.header11, shared: true,
                                      defines: ["SKILL_TEST_GROWN_HEADER"])
        let result = try HostTestSupport.run(host, [plugin, "grown.sizes", "{}"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONValue(parsing: Array(result.stdout.utf8))["wrote_grown_field"] == true)
    }

    /// The Swift SDK and the C sysinfo plugin, as built by this package, on a host whose structs are bigger.
    @Test("this package's plugins, Swift and C, run on a host built against a 1.1 header",
          arguments: [("libClockSkill.so", "clock.now", #"{"timezone":"UTC"}"#), ("libTextSkill.so", "text.stats", #"{"text":"one two"}"#)])
    func thisPackagesPluginsOnNewerHost(file: String, skill: String, arguments: String) throws {
        let plugin = HostTestSupport.packageRoot + "/.build/debug/" + file
        guard FileManager.default.fileExists(atPath: plugin) else { throw TestSetupError("build the package first: \(plugin)") }
        let host = try Self.compile("abi_host.c", header: Self.header11, shared: false)
        let result = try HostTestSupport.run(host, [plugin, skill, arguments])
        #expect(result.status == 0, "\(skill): \(result.stdout) \(result.stderr)")
        #expect(try JSONValue(parsing: Array(result.stdout.utf8)).objectValue != nil)
    }

    /// The SDK itself compiled against the 1.1 header (its structs bigger than this host's): it must still
    /// compile (no memberwise initializers of ABI structs) and accept this host's 1.0-sized result.
    @Test("a Swift plugin whose SDK was built against a 1.1 header runs on this 1.0 host")
    func swiftSDKBuiltAgainstNewerHeader() throws {
        let folder = HostTestSupport.temporaryDirectory("abi-1.1-swift")
        let include = folder + "/include"
        try FileManager.default.createDirectory(atPath: include, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.header11 + "/skill_abi.h", toPath: include + "/skill_abi.h")
        try "module CSkillABI {\n    header \"skill_abi.h\"\n    export *\n}\n"
            .write(toFile: include + "/module.modulemap", atomically: true, encoding: .utf8)
        let sources = HostTestSupport.packageRoot + "/Sources/"
        func swiftFiles(_ module: String) throws -> [String] {
            let root = sources + module
            return try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }.map { root + "/" + $0 }
        }
        // SkillPosix's C part (epoll and eventfd wrappers), as SwiftPM builds it: an object and a module map.
        let events = folder + "/events"
        try FileManager.default.createDirectory(atPath: events, withIntermediateDirectories: true)
        let eventsSource = sources + "CPosixEvents"
        try "module CPosixEvents {\n    header \"\(eventsSource)/include/posix_events.h\"\n    export *\n}\n"
            .write(toFile: events + "/module.modulemap", atomically: true, encoding: .utf8)
        let object = try HostTestSupport.run("/usr/bin/env", ["cc", "-c", "-fPIC", "-I", eventsSource + "/include", eventsSource + "/posix_events.c", "-o", events + "/posix_events.o"])
        guard object.status == 0 else { throw TestSetupError("cc posix_events.c: \(object.stderr)") }
        let archive = try HostTestSupport.run("/usr/bin/env", ["ar", "rcs", folder + "/libCPosixEvents.a", events + "/posix_events.o"])
        guard archive.status == 0 else { throw TestSetupError("ar: \(archive.stderr)") }
        for module in ["SkillJSON", "SkillContract", "SkillPosix", "SkillSDK"] {
            let result = try HostTestSupport.run("/usr/bin/env", ["swiftc", "-package-name", "skillhost", "-parse-as-library",
                "-static", "-emit-library", "-emit-module", "-module-name", module, "-I", folder, "-I", include, "-I", events,
                "-emit-module-path", folder + "/\(module).swiftmodule", "-o", folder + "/lib\(module).a"] + swiftFiles(module))
            guard result.status == 0 else { throw TestSetupError("swiftc \(module): \(result.stderr)") }
        }
        let plugins = folder + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let link = try HostTestSupport.run("/usr/bin/env", ["swiftc", "-parse-as-library", "-emit-library", "-module-name", "Swift11",
            "-I", folder, "-I", include, "-I", events, "-o", plugins + "/libswift11.so", Self.fixtures + "/GrownSwiftPlugin.swift",
            "-L", folder, "-lSkillSDK", "-lSkillContract", "-lSkillPosix", "-lSkillJSON", "-lCPosixEvents"])
        guard link.status == 0 else { throw TestSetupError("swiftc plugin: \(link.stderr)") }
        let call = try HostTestSupport.skillhost(["call", "swift11.echo", #"{"a":1}"#], root: folder)
        #expect(call.status == 0, "\(call.stdout) \(call.stderr)")
        #expect(try JSONValue(parsing: Array(call.stdout.utf8)) == ["echo": ["a": 1]])
    }
}
