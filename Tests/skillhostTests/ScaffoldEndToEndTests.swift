import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `skillhost new` end to end, for both languages: generate, build (build.sh, which also validates),
/// run the generated unit test, install into a temporary plugins folder, list, call.
///
/// Slow: the Swift case builds the SDK in a separate package: the SDK as installed (``InstalledPrefix``), in
/// the SwiftPM build folder AuthorPathTests uses too, so the SDK is built once per run and later runs on an
/// unchanged prefix rebuild only the small generated targets.
@Suite(.serialized) struct ScaffoldEndToEndTests {
    static var scratch: String { InstalledPrefix.scratch }

    /// The environment of build.sh and swift test: the skillhost under test, the shared scratch folder.
    static func environment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SKILLHOST"] = try HostTestSupport.skillhostBinary()
        environment["SWIFT_SCRATCH_PATH"] = scratch
        return environment
    }

    /// Runs `skillhost new` (a Swift package against the installed SDK, a C one against the checkout's
    /// headers), then build.sh with `buildArguments`; returns the package folder.
    static func generateAndBuild(_ name: String, language: String, buildArguments: [String]) throws -> String {
        let parent = HostTestSupport.temporaryDirectory("scaffold")
        let sdk = language == "swift" ? try InstalledPrefix.install() + "/share/skillhost/sdk/skillhost-sdk-1.0" : HostTestSupport.packageRoot
        let generated = try HostTestSupport.run(
            try HostTestSupport.skillhostBinary(), ["new", name, "--lang", language, "--dir", parent, "--sdk", sdk])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("created \(parent)/\(name)"))
        let folder = parent + "/" + name
        let built = try HostTestSupport.run(folder + "/build.sh", buildArguments, environment: try environment())
        try #require(built.status == 0, "build.sh failed:\n\(built.stdout)\n\(built.stderr)")
        #expect(built.stdout.contains("out/\(name).so: valid plugin \(name) 0.1.0"), "\(built.stdout)")
        return folder
    }

    /// Installs out/NAME.so into a fresh plugins folder, lists it and calls its skill.
    static func installListAndCall(_ name: String, folder: String) throws {
        let root = HostTestSupport.temporaryDirectory("scaffold-host")
        let installed = try HostTestSupport.skillhost(["install", folder + "/out/\(name).so", "--json"], root: root)
        try #require(installed.status == 0, "\(installed.stderr)")
        let report = try JSONValue(parsing: Array(installed.stdout.utf8))
        #expect(report["path"] == .string(root + "/plugins/\(name).so"))
        #expect(report["replaced"] == false)

        let listed = try HostTestSupport.skillhost(["list"], root: root)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\(name).greet"), "\(listed.stdout)")

        let called = try HostTestSupport.skillhost(["call", "\(name).greet", #"{"name": "Ada", "tone": "formal"}"#], root: root)
        #expect(called.status == 0, "\(called.stderr)")
        #expect(try JSONValue(parsing: Array(called.stdout.utf8))["greeting"] == "Good day, Ada!")

        let refused = try HostTestSupport.skillhost(["call", "\(name).greet", #"{"name": "Ada", "exclamations": 9}"#], root: root)
        #expect(refused.status == 5, "the schema written by the scaffold is enforced")
    }

    @Test func cPluginFromScaffoldToCall() throws {
        let folder = try ScaffoldEndToEndTests.generateAndBuild("hello-c", language: "c", buildArguments: [])
        try ScaffoldEndToEndTests.installListAndCall("hello-c", folder: folder)
    }

    @Test func swiftPluginFromScaffoldToCall() throws {
        let folder = try ScaffoldEndToEndTests.generateAndBuild("hello", language: "swift", buildArguments: ["debug"])
        try ScaffoldEndToEndTests.addSecondPlugin(to: folder)
        let tested = try HostTestSupport.run(
            "/usr/bin/env", ["swift", "test", "--package-path", folder, "--scratch-path", ScaffoldEndToEndTests.scratch],
            environment: try ScaffoldEndToEndTests.environment())
        #expect(tested.status == 0, "the generated unit tests pass:\n\(tested.stdout)\n\(tested.stderr)")
        #expect(!tested.stderr.contains("duplicate symbol"), "two plugins in one package still link under swift test")
        #expect(tested.stdout.contains("bothPluginsAreTestableInOneRun") || tested.stderr.contains("bothPluginsAreTestableInOneRun"))
        try ScaffoldEndToEndTests.installListAndCall("hello", folder: folder)
    }

    /// Adds a second plugin ("bye") to a generated Swift package the way docs/authoring.md says (a
    /// ByeSkills library, a thin ByePlugin export target, tests on the libraries only) and a test that
    /// uses both plugins: `swift test` must link although both export targets define skill_plugin_entry.
    static func addSecondPlugin(to folder: String) throws {
        func read(_ path: String) throws -> String { try String(contentsOfFile: folder + "/" + path, encoding: .utf8) }
        func write(_ text: String, _ path: String) throws { try HostTestSupport.write(text, to: folder + "/" + path) }
        let rename = { (text: String) in
            text.replacingOccurrences(of: "HelloSkills", with: "ByeSkills").replacingOccurrences(of: "helloPlugin", with: "byePlugin")
                .replacingOccurrences(of: "id: \"hello\"", with: "id: \"bye\"")
        }
        try write(rename(try read("Sources/HelloSkills/HelloPlugin.swift")), "Sources/ByeSkills/ByePlugin.swift")
        try write(try read("Sources/HelloSkills/Greet.swift"), "Sources/ByeSkills/Greet.swift")
        try write(rename(try read("Sources/HelloPlugin/Export.swift")), "Sources/ByePlugin/Export.swift")
        var manifest = try read("Package.swift")
        manifest = manifest.replacingOccurrences(
            of: #".library(name: "HelloPlugin", type: .dynamic, targets: ["HelloPlugin"]),"#,
            with: #".library(name: "HelloPlugin", type: .dynamic, targets: ["HelloPlugin"]), .library(name: "ByePlugin", type: .dynamic, targets: ["ByePlugin"]),"#)
        manifest = manifest.replacingOccurrences(
            of: "        .testTarget(",
            with: """
                        .target(name: "ByeSkills", dependencies: [.product(name: "SkillSDK", package: skillHost)]),
                        .target(name: "ByePlugin", dependencies: ["ByeSkills"], linkerSettings: exportOnlyTheEntryPoint),
                        .testTarget(
                """)
        manifest = manifest.replacingOccurrences(of: #"dependencies: ["HelloSkills", .product"#, with: #"dependencies: ["HelloSkills", "ByeSkills", .product"#)
        try write(manifest, "Package.swift")
        try write(
            """
            import ByeSkills
            import HelloSkills
            import Testing

            @Test func bothPluginsAreTestableInOneRun() {
                #expect(helloPlugin.problems == [])
                #expect(byePlugin.problems == [])
                #expect(byePlugin.id == "bye")
            }

            """, "Tests/HelloSkillsTests/TwoPluginsTests.swift")
    }

    @Test func refusesBadNamesAndExistingFolders() throws {
        let parent = HostTestSupport.temporaryDirectory("scaffold-bad")
        let binary = try HostTestSupport.skillhostBinary()
        let badName = try HostTestSupport.run(binary, ["new", "My Plugin", "--dir", parent])
        #expect(badName.status == 5)
        #expect(badName.stderr.contains("cannot name a plugin"))
        let badLanguage = try HostTestSupport.run(binary, ["new", "ok", "--lang", "rust", "--dir", parent])
        #expect(badLanguage.status == 5)
        try HostTestSupport.write("keep me", to: parent + "/taken/notes.txt")
        let taken = try HostTestSupport.run(binary, ["new", "taken", "--dir", parent])
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: parent + "/taken/notes.txt", encoding: .utf8) == "keep me")
        let noCheckout = try HostTestSupport.run(binary, ["new", "ok", "--dir", parent, "--sdk", parent])
        #expect(noCheckout.status == 3)
        #expect(noCheckout.stderr.contains("is not a SkillHost SDK"))
    }

    @Test func installRefusesAnInvalidFileAndReplacesAtomically() throws {
        let root = HostTestSupport.temporaryDirectory("install")
        try HostTestSupport.write("not a library", to: root + "/bogus.so")
        let refused = try HostTestSupport.skillhost(["install", root + "/bogus.so"], root: root)
        #expect(refused.status == 9)
        #expect(refused.stderr.contains("not installed"))
        #expect(!FileManager.default.fileExists(atPath: root + "/plugins/bogus.so"))

        let plugin = try HostTestSupport.fixturePlugin()
        let first = try HostTestSupport.skillhost(["install", plugin], root: root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("installed "))
        let second = try HostTestSupport.skillhost(["install", plugin], root: root)
        #expect(second.stdout.hasPrefix("replaced "))
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/plugins").sorted()
        #expect(names.filter { $0.hasSuffix(".so") }.count == 1)
        #expect(!names.contains { $0.contains(".tmp") }, "no temporary file is left behind: \(names)")
    }

    /// The development loop: a running host (as in a chat) calls a plugin, the author rebuilds and
    /// installs a changed version, and the host's next call runs the new code in a fresh worker.
    @Test func aRunningHostPicksUpAReinstalledPlugin() async throws {
        let parent = HostTestSupport.temporaryDirectory("reload")
        let binary = try HostTestSupport.skillhostBinary()
        let generated = try HostTestSupport.run(
            binary, ["new", "reload", "--lang", "c", "--dir", parent, "--sdk", HostTestSupport.packageRoot])
        try #require(generated.status == 0, "\(generated.stderr)")
        let source = parent + "/reload/reload.c"
        let include = HostTestSupport.packageRoot + "/Sources/CSkillABI/include"
        func compile(_ output: String) throws {
            let result = try HostTestSupport.run(
                "/usr/bin/cc", ["-std=c99", "-fPIC", "-shared", "-fvisibility=hidden", "-I", include, source, "-o", output])
            try #require(result.status == 0, "\(result.stderr)")
        }
        try compile(parent + "/v1.so")
        let original = try String(contentsOfFile: source, encoding: .utf8)
        try original.replacingOccurrences(of: "\"Hello, %s", with: "\"Howdy, %s")
            .write(toFile: source, atomically: true, encoding: .utf8)
        try compile(parent + "/v2.so")

        let (host, _) = try HostTestSupport.makeHost()
        defer { Task { await host.shutdown() } }
        _ = try host.install(path: parent + "/v1.so")
        let before = try await host.invoke(skillID: "reload.greet", arguments: ["name": "Ada"])
        #expect(before["greeting"] == "Hello, Ada!")
        let report = try host.install(path: parent + "/v2.so")
        #expect(report.replaced)
        let after = try await host.invoke(skillID: "reload.greet", arguments: ["name": "Ada"])
        #expect(after["greeting"] == "Howdy, Ada!")
    }
}
