import Foundation
import Testing

/// `skill_json.h`, the C authors' JSON helper: its own C test program (Tests/Fixtures/SkillJSONC), built
/// pedantically with every warning an error, run with hostile inputs (truncated, deeply nested, bad escapes,
/// invalid UTF-8, huge numbers) and, when the compiler has them, under AddressSanitizer and UBSan.
@Suite struct SkillJSONHeaderTests {
    static let include = PluginLibrary.repositoryRoot + "/Sources/CSkillABI/include"
    static let source = PluginLibrary.repositoryRoot + "/Tests/Fixtures/SkillJSONC/skill_json_test.c"

    /// Compiles the test program with `flags` and runs it; returns its output.
    static func buildAndRun(_ flags: [String], name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skill-json-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let program = directory + "/" + name
        try PluginLibrary.run(
            "/usr/bin/env",
            ["cc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-g"] + flags
                + ["-I", include, source, "-o", program])
        return try PluginLibrary.run(program, [])
    }

    @Test func passesItsChecksPedanticC99() throws {
        let output = try SkillJSONHeaderTests.buildAndRun(["-O2"], name: "plain")
        #expect(output.hasPrefix("ok "), "\(output)")
    }

    @Test func passesItsChecksUnderSanitizers() throws {
        // Skip quietly only when this compiler cannot link sanitizers at all.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["sh", "-c", "echo 'int main(void){return 0;}' | cc -x c -fsanitize=address,undefined -o /dev/null -"]
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { return }
        let output = try SkillJSONHeaderTests.buildAndRun(
            ["-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"], name: "sanitized")
        #expect(output.hasPrefix("ok "), "\(output)")
    }

    @Test func compilesInEveryDialectTheABIHeaderDoes() throws {
        let output = try PluginLibrary.run(PluginLibrary.repositoryRoot + "/scripts/check-header.sh", [])
        for dialect in ["C99  ", "C11  ", "C++11", "C++17"] {
            #expect(output.contains("ok    \(dialect) skill_json.h"), "\(output)")
        }
    }
}
