import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// A third-party author's whole path with an installed SkillHost only (issue #32, docs/authoring.md):
/// `scripts/install.sh` into a temporary prefix, copied elsewhere (``InstalledPrefix``); then, with the
/// checkout hidden under an empty folder (a mount namespace of the test's own, when the kernel allows one),
/// scaffold a Swift and a C plugin, build, test and validate them, sign and pack them with keys made by
/// minisign and by skillhost, and, as a user of the same machine, trust the keys, install the packages and
/// call the skills. Also the Swift scaffold against a published SDK (a git URL and version).
///
/// Slow (it builds the SDK): SwiftPM's build folder is kept in ``InstalledPrefix/scratch``, shared with
/// ScaffoldEndToEndTests, so the SDK is built once per run, and later runs on an unchanged prefix rebuild
/// only the generated packages.
@Suite("a third-party author's path with an installed SkillHost only", .serialized)
struct AuthorPathTests {
    /// Where the author and the user work, fresh each run.
    static let base = InstalledPrefix.root + "/author"

    /// Whether this kernel lets the test hide the checkout in a mount namespace of its own.
    static let canHideCheckout: Bool = {
        (try? TestProcess.run("/usr/bin/unshare", ["--mount", "--map-root-user", "--", "/bin/true"]))?.status == 0
    }()

    /// The environment of someone who installed SkillHost into the prefix: its bin first on PATH, a home of
    /// their own, PKG_CONFIG_PATH as install.sh advises, no SKILLHOST_* settings of the test's.
    static func environment(home: String, extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SKILLHOST") && !$0.key.hasPrefix("XDG_") }
        environment["PATH"] = InstalledPrefix.prefix + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = home
        environment["PKG_CONFIG_PATH"] = InstalledPrefix.prefix + "/lib/pkgconfig"
        environment["SWIFT_SCRATCH_PATH"] = InstalledPrefix.scratch
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs a command in `directory` as that person, with the checkout hidden when possible.
    static func run(
        _ command: [String], in directory: String, home: String, extra: [String: String] = [:]
    ) throws -> HostTestSupport.ProcessResult {
        let environment = environment(home: home, extra: extra)
        if canHideCheckout {
            let script = #"mount -t tmpfs tmpfs "$0" && cd "$1" && shift && exec "$@""#
            return try TestProcess.run(
                "/usr/bin/unshare",
                ["--mount", "--map-root-user", "--", "/bin/sh", "-c", script, HostTestSupport.packageRoot, directory] + command,
                environment: environment)
        }
        return try TestProcess.run(
            "/bin/sh", ["-c", #"cd "$0" && exec "$@""#, directory] + command, environment: environment)
    }

    /// Every regular file below `folder` whose text mentions the checkout (generated sources, scripts,
    /// SwiftPM's state).
    static func filesMentioningCheckout(in folder: String) -> [String] {
        let checkout = HostTestSupport.packageRoot + "/"
        return (FileManager.default.subpaths(atPath: folder) ?? []).filter { path in
            guard !path.contains(".build/"), let data = FileManager.default.contents(atPath: folder + "/" + path), data.count < 1 << 20 else { return false }
            return String(decoding: data, as: UTF8.self).contains(checkout)
        }
    }

    @Test("install, scaffold, build, test, validate, sign, pack, trust, install, call: the checkout out of reach")
    func wholePath() throws {
        let prefix = try InstalledPrefix.install()
        try? FileManager.default.removeItem(atPath: Self.base)
        let author = Self.base + "/author-home"
        let user = Self.base + "/user-home"
        let work = Self.base + "/work"
        for folder in [author, user, work] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        func asAuthor(_ command: String..., in directory: String = work, extra: [String: String] = [:]) throws -> HostTestSupport.ProcessResult {
            try Self.run(command, in: directory, home: author, extra: extra)
        }
        func asUser(_ command: String...) throws -> HostTestSupport.ProcessResult {
            try Self.run(command, in: work, home: user)
        }
        if Self.canHideCheckout {
            let hidden = try asAuthor("ls", "-A", HostTestSupport.packageRoot)
            #expect(hidden.status == 0 && hidden.stdout.isEmpty, "the checkout is hidden from the author's commands: \(hidden.stdout)")
        }

        // Where the SDK is: beside the installed skillhost, in C (pkg-config) and Swift.
        let sdkPath = try asAuthor("skillhost", "sdk", "path")
        #expect(sdkPath.stdout == InstalledPrefix.sdk + "\n", "\(sdkPath.stdout) \(sdkPath.stderr)")
        let cflags = try asAuthor("pkg-config", "--cflags", "skillhost")
        #expect(cflags.status == 0 && cflags.stdout.contains(prefix + "/lib/pkgconfig/../../include/skillhost"), "\(cflags.stdout) \(cflags.stderr)")
        #expect(try asAuthor("skillhost", "sdk", "path", "--include").stdout == prefix + "/include/skillhost\n")

        // Swift: scaffold, build (validates), test.
        let made = try asAuthor("skillhost", "new", "hello", "--dir", work)
        try #require(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOfFile: work + "/hello/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#"let sdkPath = "\#(InstalledPrefix.sdk)""#))
        try "MIT License\n".write(toFile: work + "/hello/LICENSE", atomically: true, encoding: .utf8)
        let built = try asAuthor("./build.sh", "debug", in: work + "/hello")
        try #require(built.status == 0, "build.sh:\n\(built.stdout)\n\(built.stderr)")
        #expect(built.stdout.contains("out/hello.so: valid plugin hello 0.1.0"))
        let tested = try asAuthor("swift", "test", "--scratch-path", InstalledPrefix.scratch, in: work + "/hello")
        #expect(tested.status == 0, "swift test:\n\(tested.stdout)\n\(tested.stderr)")

        // C: scaffold, build (headers through pkg-config; then through skillhost sdk path), test, validate.
        let madeC = try asAuthor("skillhost", "new", "hello-c", "--lang", "c", "--dir", work)
        try #require(madeC.status == 0, "\(madeC.stderr)")
        let builtC = try asAuthor("./build.sh", in: work + "/hello-c")
        try #require(builtC.status == 0, "build.sh:\n\(builtC.stdout)\n\(builtC.stderr)")
        #expect(builtC.stdout.contains("hello-c_test: all checks passed") && builtC.stdout.contains("valid plugin hello-c 0.1.0"))
        let withoutPkgConfig = try asAuthor("./build.sh", in: work + "/hello-c", extra: ["PKG_CONFIG_PATH": Self.base + "/nowhere"])
        #expect(withoutPkgConfig.status == 0, "build.sh with the headers from 'skillhost sdk path':\n\(withoutPkgConfig.stderr)")
        // The complete C example the guide points to, from the installed docs, with its documented command.
        let example = try asAuthor(
            "/bin/sh", "-c", #"cd "$0" && cc $(pkg-config --cflags skillhost) -std=c99 -shared -fPIC -fvisibility=hidden *.c -o "$1/sysinfo.so" && skillhost validate "$1/sysinfo.so""#,
            prefix + "/share/doc/skillhost/examples/sysinfo", work)
        #expect(example.status == 0 && example.stdout.contains("valid plugin sysinfo"), "the installed example:\n\(example.stdout)\n\(example.stderr)")
        #expect(Self.filesMentioningCheckout(in: work).isEmpty, "generated files name the checkout: \(Self.filesMentioningCheckout(in: work))")

        // Keys: one made by minisign (the author's own tool), one by skillhost. Sign and pack.
        let minisignKey = try asAuthor(try MinisignPeer.path(), "-G", "-W", "-p", work + "/acme.pub", "-s", author + "/.minisign/minisign.key")
        try #require(minisignKey.status == 0, "\(minisignKey.stderr)")
        let ownKey = try asAuthor("skillhost", "keys", "generate", "--secret", author + "/keys/c.key", "--public", work + "/c.pub")
        try #require(ownKey.status == 0, "\(ownKey.stderr)")
        let packed = try asAuthor("skillhost", "pack", work + "/hello", "--key", author + "/.minisign/minisign.key", "--json")
        try #require(packed.status == 0, "\(packed.stderr)")
        let package = try #require(try JSONValue(parsing: packed.stdout)["path"]?.stringValue)
        #expect(package == work + "/hello/out/hello-0.1.0.skillpkg")
        #expect(try JSONValue(parsing: packed.stdout)["notes"] == [], "README and LICENSE found: \(packed.stdout)")
        let packedC = try asAuthor("skillhost", "pack", work + "/hello-c", "--key", author + "/keys/c.key")
        try #require(packedC.status == 0, "\(packedC.stderr)")

        // The user: trust the publishers, install the packages, call.
        #expect(try asUser("skillhost", "keys", "trust", work + "/acme.pub", "--name", "Acme").status == 0)
        #expect(try asUser("skillhost", "keys", "trust", work + "/c.pub", "--name", "C Corp").status == 0)
        for file in [package, work + "/hello-c/out/hello-c-0.1.0.skillpkg"] {
            let installed = try asUser("skillhost", "install", file)
            #expect(installed.status == 0, "install \(file): \(installed.stderr)")
        }
        let called = try asUser("skillhost", "call", "hello.greet", #"{"name": "Ada", "tone": "formal"}"#)
        #expect(called.status == 0, "\(called.stderr)")
        #expect(try JSONValue(parsing: called.stdout)["greeting"] == "Good day, Ada!")
        let calledC = try asUser("skillhost", "call", "hello-c.greet", #"{"name": "Ada"}"#)
        #expect(try JSONValue(parsing: calledC.stdout)["greeting"] == "Hello, Ada!", "\(calledC.stderr)")
        let inspected = try asUser("skillhost", "inspect", "hello")
        #expect(inspected.stdout.contains("publisher:   Acme (key"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("signature verified"))
        let plugins = user + "/.local/share/skillhost/plugins"
        #expect(try FileManager.default.contentsOfDirectory(atPath: plugins).sorted().filter { $0.hasSuffix(".so") } == ["hello-c.so", "hello.so"])
    }

    @Test("the Swift scaffold against a published SDK: a git URL and a version resolve and build")
    func publishedSDK() throws {
        try InstalledPrefix.install()
        let root = Self.base + "-git"
        try? FileManager.default.removeItem(atPath: root)
        let home = root + "/home"
        let repository = root + "/published/skillhost-sdk"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/published", withIntermediateDirectories: true)
        try TestProcess.output("/bin/cp", ["-R", InstalledPrefix.sdk, repository])
        let git = ["/usr/bin/git", "-C", repository, "-c", "user.name=Publisher", "-c", "user.email=publisher@example.com"]
        for step in [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "SkillHost SDK 1.0"], ["tag", "1.0.0"]] {
            let result = try TestProcess.run(git[0], Array(git.dropFirst()) + step)
            try #require(result.status == 0, "git \(step): \(result.stderr)")
        }
        let made = try Self.run(["skillhost", "new", "web", "--dir", root, "--sdk", "file://\(repository)@1.0.0"], in: root, home: home)
        try #require(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOfFile: root + "/web/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#"let sdkURL = "file://\#(repository)""#) && manifest.contains(#".package(url: sdkURL, from: "1.0.0")"#))
        #expect(manifest.contains(#"let skillHost = "skillhost-sdk""#))
        let resolved = try Self.run(["swift", "package", "resolve"], in: root + "/web", home: home)
        try #require(resolved.status == 0, "\(resolved.stdout)\n\(resolved.stderr)")
        let pins = try String(contentsOfFile: root + "/web/Package.resolved", encoding: .utf8)
        #expect(pins.contains(#""version" : "1.0.0""#), "\(pins)")
        let built = try Self.run(["swift", "build", "--target", "WebSkills"], in: root + "/web", home: home)
        #expect(built.status == 0, "\(built.stdout)\n\(built.stderr)")
    }

    @Test("the SDK package declares its targets as the checkout does")
    func sdkPackageMatchesTheCheckout() throws {
        func targets(_ folder: String) throws -> [String: JSONValue] {
            // A scratch folder of its own: the checkout's .build is locked by the `swift test` running this.
            let scratch = HostTestSupport.temporaryDirectory("dump-package")
            let dumped = try TestProcess.run("/usr/bin/env", ["swift", "package", "--package-path", folder, "--scratch-path", scratch, "dump-package"])
            guard dumped.status == 0 else { throw TestSetupError("dump-package \(folder): \(dumped.stderr)") }
            var result: [String: JSONValue] = [:]
            for target in try JSONValue(parsing: dumped.stdout)["targets"]?.arrayValue ?? [] {
                guard let name = target["name"]?.stringValue else { continue }
                result[name] = ["dependencies": target["dependencies"] ?? .null, "exclude": target["exclude"] ?? .null,
                                "settings": target["settings"] ?? .null, "type": target["type"] ?? .null]
            }
            return result
        }
        let sdk = try targets(HostTestSupport.packageRoot + "/scripts/sdk")
        let checkout = try targets(HostTestSupport.packageRoot)
        #expect(Set(sdk.keys) == ["CSkillABI", "SkillJSON", "SkillContract", "CPosixEvents", "SkillPosix", "SkillSDK", "JSONSchema", "StableHash", "ManifestCheck", "SkillCheck"])
        for (name, declaration) in sdk {
            #expect(declaration == checkout[name], "target \(name) differs between scripts/sdk/Package.swift and Package.swift")
        }
    }
}
