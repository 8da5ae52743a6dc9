@testable import JSONSchema
import Testing

/// Groups nest at most `maximumGroupDepth` deep: the parser recurses once per level, and a fuzzed schema
/// pattern with 1,140 nested groups overflowed the stack (Tests/Fuzz/regressions/schema/).
@Suite struct RegexNestingTests {
    @Test func deeplyNestedGroupsAreASyntaxErrorNamingTheOffset() {
        let pattern = String(repeating: "(", count: 1_140) + "a" + String(repeating: ")", count: 1_140)
        do {
            _ = try ECMARegex(pattern)
            Issue.record("a pattern with 1,140 nested groups compiled")
        } catch {
            #expect(error.reason.contains("groups nested deeper than 128; flatten the pattern at offset 128"), "\(error)")
        }
    }

    @Test func nestingUpToTheLimitStillWorks() throws {
        let pattern = String(repeating: "(?:", count: 128) + "ab" + String(repeating: ")", count: 128) + "+"
        let regex = try ECMARegex(pattern)
        #expect(regex.matches("abab"))
        #expect(!regex.matches("ba"))
    }
}
