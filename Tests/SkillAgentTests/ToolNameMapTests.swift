import SkillCalls
import Testing

@testable import SkillAgent

@Suite struct ToolNameMapTests {
    @Test func dotsBecomeUnderscores() {
        let map = ToolNameMap(skillIDs: ["clock.now", "text.count_words"])
        #expect(map.toolName(for: "clock.now") == "clock_now")
        #expect(map.toolName(for: "text.count_words") == "text_count_words")
        #expect(map.skillID(for: "clock_now") == "clock.now")
    }

    @Test func collidingIDsGetDistinctReversibleNames() throws {
        let map = ToolNameMap(skillIDs: ["a.b_c", "a_b.c", "a.b.c"])
        let names = ["a.b_c", "a_b.c", "a.b.c"].compactMap { map.toolName(for: $0) }
        #expect(names.count == 3)
        #expect(Set(names).count == 3)
        for id in ["a.b_c", "a_b.c", "a.b.c"] {
            let name = try #require(map.toolName(for: id))
            #expect(ToolNameMap.isValidToolName(name))
            #expect(name.hasPrefix("a_b_c-"))
            #expect(map.skillID(for: name) == id)
        }
    }

    @Test func namesDoNotDependOnOtherSkills() {
        let alone = ToolNameMap(skillIDs: ["a.b_c", "a_b.c"])
        let more = ToolNameMap(skillIDs: ["zzz.last", "a_b.c", "a.b_c", "clock.now"])
        #expect(alone.toolName(for: "a.b_c") == more.toolName(for: "a.b_c"))
        #expect(alone.toolName(for: "a_b.c") == more.toolName(for: "a_b.c"))
    }

    @Test func longIDsAreCutWithAHashSuffix() throws {
        let long = "plugin." + String(repeating: "very_long_segment_", count: 5) + "x"
        let other = "plugin." + String(repeating: "very_long_segment_", count: 5) + "y"
        let map = ToolNameMap(skillIDs: [long, other])
        let first = try #require(map.toolName(for: long))
        let second = try #require(map.toolName(for: other))
        #expect(first.count == 64)
        #expect(first != second)
        #expect(ToolNameMap.isValidToolName(first))
        #expect(map.skillID(for: first) == long)
        #expect(map.skillID(for: second) == other)
    }

    @Test func acceptsTheDottedIDAndIgnoresCase() {
        let map = ToolNameMap(skillIDs: ["clock.now"])
        #expect(map.skillID(for: "clock.now") == "clock.now")
        #expect(map.skillID(for: "Clock_Now") == "clock.now")
        #expect(map.skillID(for: "clock_later") == nil)
    }

    @Test func validNameCheck() {
        #expect(ToolNameMap.isValidToolName("a-b_C9"))
        #expect(!ToolNameMap.isValidToolName("a.b"))
        #expect(!ToolNameMap.isValidToolName(""))
        #expect(!ToolNameMap.isValidToolName(String(repeating: "a", count: 65)))
    }
}
