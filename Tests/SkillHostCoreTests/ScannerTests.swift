import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("The scanner child")
struct ScannerTests {
    func scanner(timeout: Double = 10) throws -> PluginScanner {
        PluginScanner(helperExecutable: try HostTestSupport.skillhostBinary(), timeout: timeout)
    }

    @Test("a good plugin reports its manifest")
    func good() throws {
        let outcome = try scanner().scan(path: try HostTestSupport.fixturePlugin())
        #expect(outcome.status == .ok)
        #expect(outcome.manifest?["id"] == "fixture")
    }

    @Test("a plugin that crashes while loading is broken with the signal; the host survives")
    func crashOnLoad() throws {
        let outcome = try scanner().scan(path: try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD"]))
        #expect(outcome.status == .broken)
        #expect(outcome.error?.contains("signal 11 (SIGSEGV") == true)
        #expect(outcome.error?.contains("skillhost rescan") == true)
    }

    @Test("a plugin that hangs while loading is killed and broken with the timeout")
    func hangOnLoad() throws {
        let started = Date()
        let outcome = try scanner(timeout: 1).scan(path: try HostTestSupport.fixturePlugin(["HANG_ON_LOAD"]))
        #expect(outcome.status == .broken)
        #expect(outcome.error?.contains("did not finish within 1 s") == true)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("a plugin that exits while loading is broken with the exit status")
    func exitOnLoad() throws {
        let outcome = try scanner().scan(path: try HostTestSupport.fixturePlugin(["EXIT_ON_LOAD"]))
        #expect(outcome.status == .broken)
        #expect(outcome.error?.contains("exited with status 3") == true)
    }

    @Test("a plugin that prints to stdout while loading cannot corrupt the report")
    func printOnLoad() throws {
        let outcome = try scanner().scan(path: try HostTestSupport.fixturePlugin(["PRINT_ON_LOAD"]))
        #expect(outcome.status == .ok)
    }

    @Test("descriptor and manifest faults found in the child are invalid with the reason")
    func invalidInChild() throws {
        let major = try scanner().scan(path: try HostTestSupport.fixturePlugin(["DESCRIPTOR_MAJOR=3"]))
        #expect(major.status == .invalid)
        #expect(major.error?.contains("ABI 3.0") == true)
        let path = try HostTestSupport.fixturePlugin(manifest: #"{"id":"m","name":"M","version":"one","abi_version":"1.0","description":"d","skills":[{"id":"m.x","title":"X","description":"d","parameters":{"type":"object"},"permission":"root","idempotent":true}]}"#)
        let bad = try scanner().scan(path: path)
        #expect(bad.status == .invalid)
        #expect(bad.problems.count == 2)
        #expect(bad.problems.contains { $0.hasPrefix(path) && $0.contains("manifest /version") })
        #expect(bad.problems.contains { $0.contains("manifest /skills/0/permission (skill m.x)") })
    }

    @Test("a crashing, a hanging and an exiting file in the middle of a batch are broken; the files around them are scanned")
    func hostileFilesInABatch() throws {
        let folder = HostTestSupport.temporaryDirectory()
        let good = try HostTestSupport.fixturePlugin()
        let files = [
            try HostTestSupport.install(good, into: folder, as: "a.so"),
            try HostTestSupport.install(try HostTestSupport.fixturePlugin(["CRASH_ON_LOAD"]), into: folder, as: "b.so"),
            try HostTestSupport.install(try HostTestSupport.fixturePlugin(["HANG_ON_LOAD"]), into: folder, as: "c.so"),
            try HostTestSupport.install(try HostTestSupport.fixturePlugin(["EXIT_ON_LOAD"]), into: folder, as: "d.so"),
            try HostTestSupport.install(good, into: folder, as: "e.so"),
        ]
        let scanner = PluginScanner(helperExecutable: try HostTestSupport.skillhostBinary(), timeout: 2, parallelism: 1)
        let started = PluginScanner.childrenStarted
        let outcomes = try scanner.scan(paths: files)
        #expect(outcomes.count == 5)
        #expect(outcomes[files[0]]?.status == .ok)
        #expect(outcomes[files[0]]?.manifest?["id"] == "fixture")
        #expect(outcomes[files[1]]?.status == .broken)
        #expect(outcomes[files[1]]?.error?.hasPrefix(files[1] + ": the scanner crashed with signal 11 (SIGSEGV") == true)
        #expect(outcomes[files[2]]?.status == .broken)
        #expect(outcomes[files[2]]?.error?.hasPrefix(files[2] + ": the scanner did not finish within 2 s") == true)
        #expect(outcomes[files[3]]?.status == .broken)
        #expect(outcomes[files[3]]?.error?.contains("exited with status 3") == true)
        #expect(outcomes[files[4]]?.status == .ok)
        // One child for the batch, and a new one after each of the three files that ended a child.
        // (Exact under scripts/test.sh's --no-parallel; other tests start no scanner meanwhile.)
        #expect(PluginScanner.childrenStarted - started == 4)
    }

    @Test("many files are scanned in batches by parallel children, each file keeping its own outcome")
    func manyFilesInBatches() throws {
        let folder = HostTestSupport.temporaryDirectory()
        var files: [String] = []
        for index in 0..<(PluginScanner.maximumBatch + 5) {
            files.append(try HostTestSupport.install(
                try HostTestSupport.fixturePlugin(index == 20 ? ["CRASH_ON_LOAD"] : []), into: folder, as: "p\(index).so"))
        }
        try HostTestSupport.write("not a library", to: folder + "/text.so")
        let scanner = PluginScanner(helperExecutable: try HostTestSupport.skillhostBinary(), parallelism: 2)
        let started = PluginScanner.childrenStarted
        let outcomes = try scanner.scan(paths: files + [folder + "/text.so"])
        #expect(outcomes.count == files.count + 1)
        #expect(outcomes[folder + "/text.so"]?.status == .invalid)
        #expect(outcomes[files[20]]?.status == .broken)
        #expect(files.enumerated().allSatisfy { $0.offset == 20 || outcomes[$0.element]?.status == .ok })
        // 37 files in two batches of 19 and 18, plus one child after the crash: far fewer than one per file.
        #expect(PluginScanner.childrenStarted - started == 3)
    }

    @Test("a truncated file is invalid without starting a child")
    func truncatedNeedsNoChild() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: try HostTestSupport.fixturePlugin()))
        let path = HostTestSupport.temporaryDirectory() + "/cut.so"
        try original.prefix(original.count - 100).write(to: URL(fileURLWithPath: path))
        let broken = PluginScanner(helperExecutable: "/nonexistent/skillhost")
        let outcome = try broken.scan(path: path)
        #expect(outcome.status == .invalid)
        #expect(outcome.error?.contains("truncated") == true)
    }

    @Test("a scanner that cannot start is a host error, not a plugin verdict")
    func missingHelper() throws {
        let broken = PluginScanner(helperExecutable: "/nonexistent/skillhost")
        #expect(throws: HostError.self) { try broken.scan(path: try HostTestSupport.fixturePlugin()) }
    }
}
