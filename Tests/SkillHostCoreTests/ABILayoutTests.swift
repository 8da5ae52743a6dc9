import Foundation
import Testing

/// ABI 1.0 as released is written down in `Tests/Fixtures/ABI/abi_layout_1_0.c` (every field's offset, size
/// and type, every constant). The other ABI tests build both sides from the working tree's header, so an
/// edit that moved a 1.0 field would pass them: this one compares the header with the released layout.
@Suite("ABI 1.0 layout, frozen")
struct ABILayoutTests {
    static let layout = HostTestSupport.packageRoot + "/Tests/Fixtures/ABI/abi_layout_1_0.c"
    static let header = HostTestSupport.packageRoot + "/Sources/CSkillABI/include/skill_abi.h"

    /// Compiles and runs the layout check against `headerText`; the compiler's errors, or nil when it passes.
    static func check(_ headerText: String) throws -> String? {
        let folder = HostTestSupport.temporaryDirectory("abi-layout")
        try headerText.write(toFile: folder + "/skill_abi.h", atomically: true, encoding: .utf8)
        let build = try HostTestSupport.run("/usr/bin/cc", ["-std=c11", "-Wall", "-Werror", "-I", folder, layout, "-o", folder + "/layout"])
        guard build.status == 0 else { return build.stderr }
        let run = try HostTestSupport.run(folder + "/layout", [])
        return run.status == 0 ? nil : "the entry symbol is not skill_plugin_entry"
    }

    @Test("the header keeps ABI 1.0's layout and constants")
    func headerMatchesRelease() throws {
        let text = try String(contentsOfFile: Self.header, encoding: .utf8)
        let failure = try Self.check(text)
        #expect(failure == nil, "\(failure ?? "")")
    }

    /// Edits that would break plugins already built, each made to a copy of the header: the check must fail
    /// and name the field or constant; a field appended where the header says is allowed.
    @Test("a moved, resized or retyped field or a renumbered constant fails the check; an appended field does not",
          arguments: [
            ("    const char *call_id;\n    /* ", "    const char *trace_id;\n    const char *call_id;\n    /* ", "skill_call_context.call_id moved"),
            ("    int64_t deadline_unix_ms;", "    uint64_t deadline_unix_ms;", "skill_call_context.deadline_unix_ms changed type"),
            ("    size_t json_length;", "    uint32_t json_length;", "skill_result.json_length changed size"),
            ("#define SKILL_STATUS_TIMEOUT 5 ", "#define SKILL_STATUS_TIMEOUT 8 ", "a status code was renumbered"),
            ("#define SKILL_PLUGIN_ENTRY_SYMBOL \"skill_plugin_entry\"", "#define SKILL_PLUGIN_ENTRY_SYMBOL \"skill_entry\"", "entry symbol"),
            ("    /* New fields are appended here. */\n} skill_call_context;",
             "    /* New fields are appended here. */\n    uint64_t added_in_1_1;\n} skill_call_context;", ""),
          ])
    func brokenHeadersFail(original: String, edited: String, expected: String) throws {
        let text = try String(contentsOfFile: Self.header, encoding: .utf8)
        #expect(text.components(separatedBy: original).count == 2, "the header no longer has the text this case edits: \(original)")
        let failure = try Self.check(text.replacingOccurrences(of: original, with: edited))
        if expected.isEmpty {
            #expect(failure == nil, "\(failure ?? "")")
        } else {
            #expect(failure?.contains(expected) == true, "\(failure ?? "passed")")
        }
    }
}
