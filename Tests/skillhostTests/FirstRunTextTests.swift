import Foundation
import SkillJSON
import SkillTestSupport
import Testing

/// What a new user reads first: `list` names the plugins folder it read (and says when it does not exist),
/// and `inspect` shows a skill's rate limit in text as in JSON.
@Suite("First-run list and inspect text")
struct FirstRunTextTests {
    /// Runs `skillhost ARGUMENTS` with every folder under `root` and the plugins folder `plugins`.
    func skillhost(_ arguments: [String], root: String, plugins: String) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        for key in ["SKILLHOST_PLUGINS", "SKILLHOST_REGISTRY", "SKILLHOST_CACHE", "SKILLHOST_SKILLS"] { environment[key] = nil }
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        let global = ["--plugins", plugins, "--registry", root + "/registry.json", "--cache", root + "/cache", "--skills", root + "/skills"]
        return try HostTestSupport.run(try HostTestSupport.skillhostBinary(), arguments + global, environment: environment)
    }

    @Test("list names an empty plugins folder, and says when it does not exist")
    func listNamesThePluginsFolder() throws {
        let root = HostTestSupport.temporaryDirectory("first-run")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let empty = try skillhost(["list"], root: root, plugins: root + "/plugins")
        #expect(empty.status == 0)
        #expect(empty.stdout.hasPrefix("No plugins in \(root)/plugins: install one with 'skillhost install FILE.so'"), "\(empty.stdout)")
        #expect(empty.stdout.contains("--plugins DIR or SKILLHOST_PLUGINS"))

        let missing = root + "/missing"
        let table = try skillhost(["list"], root: root, plugins: missing)
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("No plugins: the plugins folder \(missing) does not exist. Create it and install one"), "\(table.stdout)")
        let json = try skillhost(["list", "--json"], root: root, plugins: missing)
        #expect(json.status == 0)
        #expect(try JSONValue(parsing: json.stdout)["plugins"] == [])
        #expect(json.stderr.contains("warning: the plugins folder \(missing) does not exist"), "\(json.stderr)")
    }

    @Test("inspect shows the rate limit in text")
    func inspectShowsTheRateLimit() throws {
        let root = HostTestSupport.temporaryDirectory("first-run")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.write(
            #"{"version": 1, "plugins": {"fixture": {"skills": {"fixture.echo": {"rate_limit_per_minute": 30}}}}}"#,
            to: root + "/registry.json")
        let limited = try skillhost(["inspect", "fixture.echo"], root: root, plugins: root + "/plugins")
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout.contains("\n  rate limit:  30 calls per minute\n"), "\(limited.stdout)")
        let free = try skillhost(["inspect", "fixture.note"], root: root, plugins: root + "/plugins")
        #expect(free.stdout.contains("\n  rate limit:  none\n"), "\(free.stdout)")
    }
}
