import SkillHostCore
import Testing

@Suite("Identifier normalization and grammar")
struct IdentifierTests {
    @Test("invisible characters, whitespace, case and fullwidth forms normalize to one id",
          arguments: ["Clock\u{200B}", "clock\n", "  clock\t", "\u{FEFF}clock", "ＣＬＯＣＫ", "CLOCK", "c\u{200D}lock", "clo\u{2060}ck"])
    func normalizesVariants(raw: String) {
        #expect(Identifier.normalize(raw) == "clock")
    }

    @Test("skill ids keep their dots and normalize per character")
    func normalizesSkillIDs() {
        #expect(Identifier.normalize("Clock.Now\u{200B}") == "clock.now")
        #expect(Identifier.normalize("ｃｌｏｃｋ．ｎｏｗ") == "clock.now")  // fullwidth full stop is NFKC "."
    }

    @Test("grammar accepts dot-separated [a-z0-9_-] segments", arguments: ["clock", "clock.now", "a-b_c.d9", "x.y.z"])
    func acceptsValid(id: String) {
        #expect(Identifier.isValid(id))
        #expect(Identifier.problem(with: id).isEmpty)
    }

    @Test("grammar rejects empty segments, spaces and other characters",
          arguments: ["", ".clock", "clock.", "clock..now", "clock now", "clock/now", "clöck", "clock.now!"])
    func rejectsInvalid(id: String) {
        #expect(!Identifier.isValid(id))
        #expect(!Identifier.problem(with: id).isEmpty)
    }

    @Test("the name part of a skill id requires the plugin prefix")
    func skillName() {
        #expect(Identifier.skillName("clock.now", inPlugin: "clock") == "now")
        #expect(Identifier.skillName("clocks.now", inPlugin: "clock") == nil)
        #expect(Identifier.skillName("clock", inPlugin: "clock") == nil)
    }
}
