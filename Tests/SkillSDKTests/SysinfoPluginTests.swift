import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

/// Builds the C plugin with the same command as scripts/build-plugins.sh and drives it through its descriptor.
@Suite struct SysinfoPluginTests {
    static let built: Result<String, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sysinfo-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let root = PluginLibrary.repositoryRoot
        let path = directory + "/sysinfo.so"
        try PluginLibrary.run(
            "/usr/bin/env",
            [
                "cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared", "-fvisibility=hidden",
                "-I", root + "/Sources/CSkillABI/include", root + "/Plugins/sysinfo/sysinfo.c",
                "-o", path,
            ])
        return path
    }

    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary(path: try SysinfoPluginTests.built.get()) }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func refusesAnotherMajor() throws {
        let handle = try #require(dlopen(plugin.path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))
        let entry = unsafeBitCast(try #require(dlsym(handle, "skill_plugin_entry")), to: skill_plugin_entry_fn.self)
        #expect(entry(2, 0, nil) == nil)
        #expect(entry(1, 5, nil) == plugin.descriptor)
    }

    @Test func handWrittenManifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "sysinfo")
        #expect(manifest["abi_version"] == "1.0")
        #expect(
            manifest["skills"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["sysinfo.kernel", "sysinfo.uptime", "sysinfo.load", "sysinfo.memory", "sysinfo.overview"])
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
        #expect(plugin.descriptor.pointee.struct_size == 48)
    }

    @Test func kernelMatchesUname() async throws {
        let call = await plugin.call("sysinfo.kernel")
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["name"] == "Linux")
        let release = try PluginLibrary.run("/usr/bin/env", ["uname", "-r"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(call.json?["release"] == .string(release))
    }

    @Test func uptimeIsConsistent() async throws {
        let call = await plugin.call("sysinfo.uptime")
        let seconds = try #require(call.json?["seconds"]?.intValue)
        #expect(seconds > 0)
        #expect(call.json?["days"]?.intValue == seconds / 86400)
        #expect(call.json?["text"]?.stringValue?.contains("day") == true)
    }

    @Test func loadReportsCPUs() async {
        let call = await plugin.call("sysinfo.load")
        #expect(call.json?["cpus"]?.intValue == Int64(ProcessInfo.processInfo.activeProcessorCount))
        #expect((call.json?["load_1m"]?.doubleValue ?? -1) >= 0)
    }

    @Test func memoryInTheRequestedUnit() async throws {
        let mebibytes = await plugin.call("sysinfo.memory")
        let gibibytes = await plugin.call("sysinfo.memory", ["unit": "GiB"])
        #expect(mebibytes.json?["unit"] == "MiB")
        #expect(gibibytes.json?["unit"] == "GiB")
        let total = try #require(mebibytes.json?["total"]?.doubleValue)
        let totalGiB = try #require(gibibytes.json?["total"]?.doubleValue)
        #expect(abs(total / 1024 - totalGiB) < 0.1)
        #expect(Double(ProcessInfo.processInfo.physicalMemory) / 1_048_576 - total < 1)
    }

    @Test func overviewAgreesWithTheDetailedSkills() async throws {
        let overview = await plugin.call("sysinfo.overview")
        let kernel = await plugin.call("sysinfo.kernel")
        let memory = await plugin.call("sysinfo.memory")
        #expect(overview.status == SKILL_STATUS_OK)
        #expect(overview.json?["hostname"] == kernel.json?["hostname"])
        #expect(overview.json?["kernel"] == kernel.json?["release"])
        #expect(overview.json?["memory_total_mib"] == memory.json?["total"])
        #expect(overview.json?["cpus"]?.intValue == Int64(ProcessInfo.processInfo.activeProcessorCount))
        #expect(overview.json?["uptime"]?.stringValue?.contains("day") == true)
    }

    @Test func unknownUnitIsAnInvalidArgument() async {
        let call = await plugin.call("sysinfo.memory", ["unit": "TB"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(
            call.json == [
                "message": "unknown unit \"TB\"", "field": "/unit", "remedy": "use one of bytes, KiB, MiB, GiB",
            ])
    }

    @Test func nonStringUnitIsAnInvalidArgument() async {
        let call = await plugin.call("sysinfo.memory", ["unit": 3])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/unit")
    }

    @Test func unknownSkillIsNotFound() async {
        let call = await plugin.call("sysinfo.disk")
        #expect(call.status == SKILL_STATUS_NOT_FOUND)
        #expect(call.json?["message"]?.stringValue?.contains("sysinfo.memory") == true)
    }
}

@Suite struct HeaderTests {
    @Test func headerCompilesPedanticallyAsC99C11AndCxx() throws {
        let output = try PluginLibrary.run(PluginLibrary.repositoryRoot + "/scripts/check-header.sh", [])
        #expect(output.contains("ok    C99   skill_abi.h"))
        #expect(output.contains("ok    C++11 skill_abi.h"))
        #expect(output.contains("ok    C99   abi_layout_checks.c"))
        #expect(!output.contains("FAIL"))
    }
}
