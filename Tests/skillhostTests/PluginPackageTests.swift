import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `skillhost pack`, `keys` and `install FILE.skillpkg` through the CLI: a package made here installs with
/// its publisher recorded; packages made by a publisher's own tooling (Python's zipfile and the real
/// minisign, Tests/Peers/craft_skillpkg.py) install too, and each kind of bad package is refused in one line
/// with nothing written.
@Suite("plugin packages: pack, sign, install", .serialized)
struct PluginPackageTests {
    /// A host folder with a minisign key pair its user trusts (`keys trust`), and one it does not.
    struct World {
        var root: String
        var key: (secret: String, public: String)
        var stranger: (secret: String, public: String)

        func skillhost(_ arguments: [String]) throws -> HostTestSupport.ProcessResult {
            try HostTestSupport.skillhost(arguments, root: root)
        }

        var plugins: String { root + "/plugins" }
        var registry: JSONValue { (try? JSONValue(parsing: Array(FileManager.default.contents(atPath: root + "/config/skill_registry.json") ?? Data()))) ?? .null }
        /// The files in the plugins folder (hidden ones too), sorted.
        var pluginFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: plugins)) ?? []).filter { $0 != ".install.lock" }.sorted() }
    }

    static func world(trusting: Bool = true) throws -> World {
        let root = HostTestSupport.temporaryDirectory("skillpkg")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let world = World(
            root: root, key: try MinisignPeer.generateKey(in: root + "/keys", name: "acme"),
            stranger: try MinisignPeer.generateKey(in: root + "/keys", name: "stranger"))
        if trusting {
            let trusted = try world.skillhost(["keys", "trust", world.key.public, "--name", "Acme"])
            try #require(trusted.status == 0, "\(trusted.stderr)")
        }
        return world
    }

    /// The fixture plugin with a manifest of this version and these skills.
    static func library(version: String = "1.0.0", skills: [String] = ["echo", "note"], description: String = "Test fixture plugin.") throws -> String {
        let entries = skills.map { name in
            #"{"id":"fixture.\#(name)","title":"\#(name)","description":"Fixture skill \#(name).","parameters":{"type":"object","additionalProperties":true},"permission":"read","timeout":5,"idempotent":true,"examples":["\#(name) something"]}"#
        }
        let manifest = #"{"id":"fixture","name":"Fixture","version":"\#(version)","abi_version":"1.0","description":"\#(description)","thread_safe":false,"skills":[\#(entries.joined(separator: ","))]}"#
        return try HostTestSupport.fixturePlugin(manifest: manifest)
    }

    /// `skillhost pack LIBRARY --key KEY` (or `--unsigned`) into the world's folder; returns the package.
    static func pack(_ library: String, in world: World, key: String?, name: String = "fixture.skillpkg") throws -> String {
        let output = world.root + "/" + name
        let packed = try world.skillhost(["pack", library, "--output", output] + (key.map { ["--key", $0] } ?? ["--unsigned"]))
        try #require(packed.status == 0, "pack failed: \(packed.stderr)")
        return output
    }

    /// A package made by craft_skillpkg.py from `spec` (see the script).
    static func craft(_ spec: JSONValue) throws -> String {
        let result = try HostTestSupport.run(
            "/usr/bin/env", ["python3", HostTestSupport.packageRoot + "/Tests/Peers/craft_skillpkg.py"], stdin: spec.serialized())
        try #require(result.status == 0, "craft_skillpkg.py: \(result.stderr)")
        return spec["out"]?.stringValue ?? ""
    }

    /// The one line of a refusal (stderr without the "skillhost: install: " prefix); records an issue when
    /// there is more than one.
    static func oneLine(_ result: HostTestSupport.ProcessResult) -> String {
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "more than one line: \(result.stderr)")
        return String(lines.first ?? "")
    }

    @Test("pack signs, install verifies and records the publisher, the plugin runs, and minisign agrees")
    func packAndInstall() throws {
        let world = try Self.world()
        let library = try Self.library()
        try "Echoes.\n".write(toFile: Posix.directoryName(of: library) + "/README.md", atomically: true, encoding: .utf8)
        let package = try Self.pack(library, in: world, key: world.key.secret)

        // The publisher's side of the check, with the publisher's tool: minisign verifies package.json.
        let unpacked = world.root + "/unpacked"
        let extract = try HostTestSupport.run(
            "/usr/bin/env", ["python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", package, unpacked])
        try #require(extract.status == 0, "\(extract.stderr)")
        let verified = try MinisignPeer.run(["-V", "-p", world.key.public, "-m", unpacked + "/package.json"])
        #expect(verified.status == 0, "minisign: \(verified.stderr)")
        let names = try FileManager.default.subpathsOfDirectory(atPath: unpacked).sorted()
        #expect(names.contains("plugin/x86_64/fixture.so") || names.contains("plugin/aarch64/fixture.so"), "\(names)")
        #expect(names.contains("manifest.json") && names.contains("README.md") && names.contains("package.json.minisig"))

        let installed = try world.skillhost(["install", package, "--json"])
        try #require(installed.status == 0, "\(installed.stderr)")
        let report = try JSONValue(parsing: installed.stdout)
        #expect(report["plugin"] == "fixture")
        #expect(report["publisher"]?["name"] == "Acme")
        let keyID = try #require(report["publisher"]?["id"]?.stringValue)
        #expect(world.registry["plugins"]?["fixture"]?["publisher"] == .string(keyID), "the registry records the signer")
        #expect(world.registry["plugins"]?["fixture"]?["sha256"] == report["sha256"], "and pins the file")
        #expect(world.pluginFiles == ["fixture.package.json", "fixture.package.json.minisig", "fixture.so"])

        let inspected = try JSONValue(parsing: try world.skillhost(["inspect", "fixture", "--json"]).stdout)
        #expect(inspected["publisher"]?["key_id"] == .string(keyID))
        #expect(inspected["publisher"]?["verified"] == true)
        let text = try world.skillhost(["inspect", "fixture"]).stdout
        #expect(text.contains("publisher:   Acme (key \(keyID)), signature verified"), "\(text)")
        let called = try world.skillhost(["call", "fixture.echo", #"{"text": "hi"}"#])
        #expect(called.status == 0, "\(called.stderr)")

        // Once the user stops trusting the key, the installed plugin shows unverified (and still runs).
        #expect(try world.skillhost(["keys", "untrust", keyID]).status == 0)
        let listed = try world.skillhost(["list"]).stdout
        #expect(listed.contains("publisher: key \(keyID) (a key you no longer trust"), "\(listed)")
        #expect(try world.skillhost(["keys", "untrust", keyID]).status == 3)
    }

    @Test("an unsigned package needs --allow-unsigned, and is then pinned by its hash with no publisher")
    func unsignedPackage() throws {
        let world = try Self.world()
        let package = try Self.pack(try Self.library(), in: world, key: nil)
        let refused = try world.skillhost(["install", package])
        #expect(refused.status == 10)
        #expect(Self.oneLine(refused).contains("fixture.skillpkg is not signed; not installed"))
        #expect(world.pluginFiles.isEmpty, "nothing written: \(world.pluginFiles)")

        let installed = try world.skillhost(["install", package, "--allow-unsigned", "--json"])
        try #require(installed.status == 0, "\(installed.stderr)")
        let report = try JSONValue(parsing: installed.stdout)
        #expect(report["publisher"] == .null)
        #expect(world.registry["plugins"]?["fixture"]?["sha256"] == report["sha256"])
        #expect(world.registry["plugins"]?["fixture"]?["publisher"] == nil)
        #expect(world.pluginFiles == ["fixture.so"])
        #expect(try world.skillhost(["inspect", "fixture"]).stdout.contains("publisher:   none"))
    }

    @Test("a package made by other tooling (zipfile, deflated; minisign) installs")
    func craftedPackageInstalls() throws {
        let world = try Self.world()
        let library = try Self.library()
        let report = try JSONValue(parsing: try world.skillhost(["validate", library, "--json"]).stdout)
        let manifest = try #require(report["manifest"])
        let package = try Self.craft([
            "out": .string(world.root + "/crafted.skillpkg"),
            "entries": [
                ["path": .string("plugin/\(Self.architecture)/fixture.so"), "file": .string(library)],
                ["path": "manifest.json", "text": .string(manifest.serialized())],
                ["path": "LICENSE", "text": "MIT\n"],
            ],
            "index": ["plugin": "fixture", "version": "1.0.0"],
            "sign": .string(world.key.secret),
        ])
        let installed = try world.skillhost(["install", package])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.contains("publisher: Acme (key"), "\(installed.stdout)")
    }

    static var architecture: String { ELFCheck.architecture(ofMachine: ELFCheck.hostMachine) ?? "x86_64" }

    /// Each kind of bad package: refused with exit `status` and one line containing `message`.
    @Test("bad packages are refused in one line and nothing is written",
          arguments: ["wrong signature", "unknown key", "library for another architecture", "no library for this machine",
                      "manifest differs from the library's", "../ path", "2 GB entry", "ZIP64 entry", "file not in package.json"])
    func badPackage(kind: String) throws {
        let world = try Self.world()
        let library = try Self.library()
        let manifest = try #require(try JSONValue(parsing: try world.skillhost(["validate", library, "--json"]).stdout)["manifest"])
        let arch = Self.architecture
        var entries: [JSONValue] = [
            ["path": .string("plugin/\(arch)/fixture.so"), "file": .string(library)],
            ["path": "manifest.json", "text": .string(manifest.serialized())],
        ]
        var spec: JSONObject = ["out": .string(world.root + "/bad.skillpkg"), "index": ["plugin": "fixture", "version": "1.0.0"],
                                "sign": .string(world.key.secret)]
        let expected: (status: Int32, message: String)
        switch kind {
        case "wrong signature":
            // The signature of another package.json (version 1.0.1) on this one.
            var other = spec
            other["out"] = .string(world.root + "/other.skillpkg")
            other["entries"] = .array(entries)
            other["index"] = ["plugin": "fixture", "version": "1.0.1"]
            let otherPackage = try Self.craft(.object(other))
            let signature = world.root + "/other.minisig"
            let extracted = try HostTestSupport.run("/usr/bin/env", ["python3", "-c",
                "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('package.json.minisig'))", otherPackage, signature])
            try #require(extracted.status == 0)
            spec["sign"] = nil
            spec["signature_from"] = .string(signature)
            expected = (10, "the signature by Acme (key")
        case "unknown key":
            spec["sign"] = .string(world.stranger.secret)
            expected = (10, "which you do not trust")
        case "library for another architecture":
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: library)))
            let other: UInt16 = ELFCheck.hostMachine == 62 ? 183 : 62
            bytes[18] = UInt8(other & 0xFF)
            bytes[19] = UInt8(other >> 8)
            let patched = world.root + "/patched.so"
            try Data(bytes).write(to: URL(fileURLWithPath: patched))
            entries[0] = ["path": .string("plugin/\(arch)/fixture.so"), "file": .string(patched)]
            expected = (9, "plugin/\(arch)/fixture.so: built for \(ELFCheck.architecture(ofMachine: other) ?? "") (ELF machine \(other)), not \(arch) (ELF machine \(ELFCheck.hostMachine)) as its place says; not installed")
        case "no library for this machine":
            let other = arch == "x86_64" ? "aarch64" : "x86_64"
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: library)))
            let machine: UInt16 = other == "aarch64" ? 183 : 62
            bytes[18] = UInt8(machine & 0xFF)
            bytes[19] = UInt8(machine >> 8)
            let patched = world.root + "/other-arch.so"
            try Data(bytes).write(to: URL(fileURLWithPath: patched))
            entries[0] = ["path": .string("plugin/\(other)/fixture.so"), "file": .string(patched)]
            expected = (9, "no library for \(arch) (it has \(other))")
        case "manifest differs from the library's":
            guard case .object(var edited) = manifest else { throw TestSetupError("no manifest") }
            edited["description"] = "Something else."
            entries[1] = ["path": "manifest.json", "text": .string(JSONValue.object(edited).serialized())]
            expected = (9, "manifest.json differs from the manifest its library returns (at /description)")
        case "../ path":
            entries.append(["path": "../evil.so", "file": .string(library)])
            expected = (9, "entry \"../evil.so\" would land outside the package")
        case "2 GB entry":
            spec["claim"] = ["path": .string("plugin/\(arch)/big.so"), "size": 2_147_483_648]
            expected = (9, "entry plugin/\(arch)/big.so claims 2147483648 bytes unpacked, more than the 256 MiB an entry may hold")
        case "ZIP64 entry":
            spec["claim"] = ["path": .string("plugin/\(arch)/big.so"), "size": .int(0xFFFF_FFFF)]
            expected = (9, "entry plugin/\(arch)/big.so has ZIP64 sizes (4 GiB or more), more than the 256 MiB an entry may hold")
        case "file not in package.json":
            spec["index"] = nil
            spec["sign"] = nil
            let good = try Self.craft(["out": .string(world.root + "/good.skillpkg"), "entries": .array(entries),
                                       "index": ["plugin": "fixture", "version": "1.0.0"], "sign": .string(world.key.secret)])
            // Same signed package.json, one more file.
            let script = """
                import sys, zipfile
                src = zipfile.ZipFile(sys.argv[1])
                with zipfile.ZipFile(sys.argv[2], 'w') as out:
                    for name in src.namelist(): out.writestr(name, src.read(name))
                    out.writestr('plugin/\(arch)/extra.txt', b'surprise')
                """
            let copied = try HostTestSupport.run("/usr/bin/env", ["python3", "-c", script, good, world.root + "/bad.skillpkg"])
            try #require(copied.status == 0, "\(copied.stderr)")
            expected = (9, "plugin/\(arch)/extra.txt is in the archive but not in package.json")
        default:
            throw TestSetupError("unknown case \(kind)")
        }
        if kind != "file not in package.json" {
            spec["entries"] = .array(entries)
            _ = try Self.craft(.object(spec))
        }
        let size = try FileManager.default.attributesOfItem(atPath: world.root + "/bad.skillpkg")[.size] as? Int ?? 0
        #expect(size < 1 << 20, "the bad package itself is small (\(size) bytes)")
        let refused = try world.skillhost(["install", world.root + "/bad.skillpkg"])
        #expect(refused.status == expected.status, "\(kind): \(refused.stderr)")
        let line = Self.oneLine(refused)
        #expect(line.contains(expected.message), "\(kind): \(line)")
        #expect(line.contains("bad.skillpkg"), "the line names the package: \(line)")
        #expect(world.pluginFiles.isEmpty, "\(kind): nothing is written: \(world.pluginFiles)")
    }

    @Test("--upgrade replaces only with a higher version that keeps the skill ids and the publisher")
    func upgrades() throws {
        let world = try Self.world()
        let trustedToo = try world.skillhost(["keys", "trust", world.stranger.public, "--name", "Other"])
        try #require(trustedToo.status == 0)
        let first = try Self.pack(try Self.library(version: "1.0.0"), in: world, key: world.key.secret, name: "v100.skillpkg")
        try #require(try world.skillhost(["install", first]).status == 0)

        let next = try Self.pack(try Self.library(version: "1.1.0"), in: world, key: world.key.secret, name: "v110.skillpkg")
        let again = try world.skillhost(["install", next])
        #expect(again.status == 5)
        #expect(Self.oneLine(again).contains("plugin fixture 1.0.0 is installed already; to replace it with 1.1.0 run 'skillhost install --upgrade v110.skillpkg'"))
        // The same package again, or the same version, is no upgrade: the line does not suggest --upgrade.
        let same = try world.skillhost(["install", first])
        #expect(same.status == 5)
        #expect(Self.oneLine(same).contains("v100.skillpkg: not installed: plugin fixture 1.0.0 is installed and the package has the same version; --upgrade installs only a higher version (to reinstall it, 'skillhost remove fixture' first)"))
        let upgraded = try world.skillhost(["install", next, "--upgrade"])
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        #expect(upgraded.stdout.hasPrefix("upgraded fixture 1.0.0 to 1.1.0 at "), "\(upgraded.stdout)")

        let older = try Self.pack(try Self.library(version: "1.0.5"), in: world, key: world.key.secret, name: "v105.skillpkg")
        for flags in [["--upgrade"], []] {
            let down = try world.skillhost(["install", older] + flags)
            #expect(down.status == 5)
            #expect(Self.oneLine(down).contains("v105.skillpkg: not \(flags.isEmpty ? "installed" : "upgraded"): plugin fixture 1.1.0 is installed and the package has 1.0.5; --upgrade installs only a higher version (to go back, 'skillhost remove fixture' first)"))
        }

        let fewer = try Self.pack(try Self.library(version: "1.2.0", skills: ["echo"]), in: world, key: world.key.secret, name: "v120.skillpkg")
        let dropped = try world.skillhost(["install", fewer, "--upgrade"])
        #expect(dropped.status == 5)
        #expect(Self.oneLine(dropped).contains("1.2.0 no longer has the skill fixture.note that 1.1.0 has"))

        let otherPublisher = try Self.pack(try Self.library(version: "1.3.0"), in: world, key: world.stranger.secret, name: "v130.skillpkg")
        let swapped = try world.skillhost(["install", otherPublisher, "--upgrade"])
        #expect(swapped.status == 10)
        #expect(Self.oneLine(swapped).contains("an upgrade keeps its publisher"))

        let listed = try JSONValue(parsing: try world.skillhost(["list", "--json"]).stdout)
        #expect(listed["plugins"]?.arrayValue?.first?["id"] == "fixture")
        let version = try JSONValue(parsing: try world.skillhost(["inspect", "fixture", "--json"]).stdout)["version"]
        #expect(version == "1.1.0", "the refused upgrades left 1.1.0 installed")
        #expect(world.pluginFiles == ["fixture.package.json", "fixture.package.json.minisig", "fixture.so"], "\(world.pluginFiles)")
    }

    @Test("a library installed over a signed plugin drops its signature and publisher; remove uninstalls")
    func libraryOverSignedPlugin() throws {
        let world = try Self.world()
        let library = try Self.library()
        try #require(try world.skillhost(["install", try Self.pack(library, in: world, key: world.key.secret)]).status == 0)
        let replaced = try world.skillhost(["install", library])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(world.pluginFiles == ["fixture.so"])
        #expect(world.registry["plugins"]?["fixture"]?["publisher"] == nil)
        let removed = try world.skillhost(["remove", "fixture"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(world.pluginFiles.isEmpty)
    }

    @Test("pack needs --key or --unsigned, a valid library, and a key that is a minisign secret key")
    func packRefusals() throws {
        let world = try Self.world()
        let library = try Self.library()
        #expect(try world.skillhost(["pack", library]).status == 2)
        let missing = try world.skillhost(["pack", world.root + "/nowhere", "--unsigned"])
        #expect(missing.status == 3)
        #expect(Self.oneLine(missing).contains("/nowhere: no such file or folder; give the plugin folder"))
        let invalid = try world.skillhost(["pack", try Self.library(version: "one"), "--unsigned"])
        #expect(invalid.status == 9)
        #expect(Self.oneLine(invalid).contains("not packed:"))
        let notAKey = try world.skillhost(["pack", library, "--key", world.key.public])
        #expect(notAKey.status == 5)
        #expect(Self.oneLine(notAKey).contains("is not a usable minisign secret key"))
        let list = try world.skillhost(["keys", "list", "--json"])
        #expect(try JSONValue(parsing: list.stdout).arrayValue?.first?["name"] == "Acme")
    }
}
