import Foundation
import SkillHostCore
import Testing

/// A refusal never looks like an empty result (issue #34): the files plugin narrowed by the registry to a
/// folder that is not its root answers `denied` (exit 10) with the real path and the grant that would allow
/// it, for `files.list`, `files.search` and `files.read` alike — not `"count": 0`.
@Suite("The files plugin's denials", .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct FilesDenialTests {
    @Test("list, search and read outside what the sandbox allows are denials naming the real path")
    func denialsAreNotEmptyResults() throws {
        let root = HostTestSupport.temporaryDirectory("skillhost-files-denial")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plugin = HostTestSupport.packageRoot + "/.build/plugins/files.so"
        try #require(FileManager.default.fileExists(atPath: plugin), "run scripts/build-plugins.sh first")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        _ = try HostTestSupport.install(plugin, into: root + "/plugins", as: "files.so")
        try HostTestSupport.write("budget 2026\n", to: root + "/home/Documents/todo.txt")
        try HostTestSupport.write("meeting notes\n", to: root + "/home/notes/today.txt")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root + "/home"
        environment["XDG_DATA_HOME"] = root + "/data"
        let global = ["--plugins", root + "/plugins", "--registry", root + "/registry.json", "--cache", root + "/cache"]
        func call(_ skill: String, _ arguments: String) throws -> HostTestSupport.ProcessResult {
            try HostTestSupport.run(try HostTestSupport.skillhostBinary(), ["call", skill, arguments] + global, environment: environment)
        }
        // As shipped, the default root ~/Documents is readable (and the worker's HOME, its data folder, is not
        // taken for the user's home).
        let listed = try call("files.list", "{}")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("todo.txt"), "\(listed.stdout)")
        // Narrowed to ~/notes while the root stays ~/Documents: every skill is refused, none answers "0".
        try HostTestSupport.write(
            #"{"version": 1, "plugins": {"files": {"capabilities": {"filesystem": [{"root": "home", "path": "notes", "access": "read"}]}}}}"#,
            to: root + "/registry.json")
        for (skill, arguments, grant) in [
            ("files.list", "{}", "home:Documents:read"), ("files.search", #"{"contains": "budget"}"#, "home:Documents:read"),
            ("files.read", #"{"path": "todo.txt"}"#, "home:Documents/todo.txt:read"),
        ] {
            let refused = try call(skill, arguments)
            #expect(refused.status == 10, "\(skill): \(refused.stdout) \(refused.stderr)")
            #expect(!refused.stdout.contains("\"count\""), "\(skill) answered as if the folder were empty: \(refused.stdout)")
            #expect(refused.stderr.contains(root + "/home/Documents"), "\(skill): \(refused.stderr)")
            #expect(refused.stderr.contains("skillhost grant files \(grant)"), "\(skill): \(refused.stderr)")
            #expect(!refused.stderr.contains("PATH"), "\(skill): a placeholder in the hint: \(refused.stderr)")
        }
    }
}
