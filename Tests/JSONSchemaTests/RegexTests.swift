import Testing
@testable import JSONSchema

@Suite struct RegexTests {
    func matches(_ pattern: String, _ text: String) throws -> Bool {
        try ECMARegex(pattern).matches(text)
    }

    @Test func escapesFollowECMAScriptNotUnicodeDefaults() throws {
        #expect(try matches(#"^\d+$"#, "42"))
        #expect(try !matches(#"^\d+$"#, "৪২"))  // Bengali digits are not \d in ECMA-262
        #expect(try matches(#"^\w+$"#, "snake_case1"))
        #expect(try !matches(#"^\w$"#, "é"))
        #expect(try matches(#"^\s$"#, "\u{FEFF}"))
        #expect(try matches(#"^\cC$"#, "\u{03}"))
        #expect(try !matches("^abc$", "abc\n"))
    }

    @Test func unicodePropertyEscapes() throws {
        #expect(try matches(#"^\p{L}+$"#, "Grüße"))
        #expect(try matches(#"^\p{Letter}+$"#, "日本語"))
        #expect(try !matches(#"^\p{L}+$"#, "abc1"))
        #expect(try matches(#"^\P{L}+$"#, "123 !"))
        #expect(try matches(#"^\p{Lu}\p{Ll}+$"#, "Ada"))
        #expect(try matches(#"^\p{Script=Greek}+$"#, "αβγ"))
        #expect(try matches(#"^[\p{N}_]+$"#, "12_٣"))
    }

    @Test func groupsAssertionsAndBackreferences() throws {
        #expect(try matches(#"^(?<word>ab)\k<word>$"#, "abab"))
        #expect(try matches(#"^(a|b)\1$"#, "bb"))
        #expect(try !matches(#"^(a|b)\1$"#, "ab"))
        #expect(try matches(#"(?<=\$)\d+"#, "cost: $42"))
        #expect(try !matches(#"(?<!\$)\b\d+$"#, "$42"))
        #expect(try matches(#"^(?!admin$)[a-z]+$"#, "ada"))
        #expect(try !matches(#"^(?!admin$)[a-z]+$"#, "admin"))
        #expect(try matches("^a{2,3}$", "aaa"))
        #expect(try !matches("^a{2,3}$", "aaaa"))
        #expect(try matches("^🐲*$", "🐲🐲"))
        #expect(try matches("^(a*)*$", "aaaa"))  // an empty-iteration loop terminates
    }

    @Test(arguments: [#"\a"#, "(?i)abc", "(?P<name>x)", "(?#comment)", "^(abc]", "a{2,1}", "*a", #"\p{NoSuchProperty}"#, "(a", #"\1(a)\2"#])
    func rejectsInvalidSyntax(_ pattern: String) {
        #expect(throws: RegexSyntaxError.self) { try ECMARegex(pattern) }
    }

    @Test func nestedQuantifiersRunInLinearTime() throws {
        // Small patterns without backreferences run on the bitset matcher, which never backtracks.
        let regex = try ECMARegex("^(a+)+$")
        #expect(regex.search(String(repeating: "a", count: 5_000) + "!") == .noMatch)
        #expect(regex.search("aaaa") == .match)
        #expect(try ECMARegex("^(a|aa)+$").search(String(repeating: "a", count: 5_000) + "b") == .noMatch)
    }

    @Test func backtrackingStopsAtTheStepBudget() throws {
        // A backreference forces the backtracking engine; its exponential search is cut off.
        let regex = try ECMARegex(#"^(a+)+\1?$"#)
        let hostile = String(repeating: "a", count: 40) + "!"
        #expect(regex.search(hostile) == .budgetExceeded)
        #expect(regex.search("aaaa") == .match)
    }

    @Test func hostilePatternInASchemaIsReportedNotHung() throws {
        let schema = try Schema(compiling: ["type": "string", "pattern": #"^(a|aa)+\1?$"#])
        let errors = schema.validate(.string(String(repeating: "a", count: 60) + "b"))
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("took too long") == true)
        #expect(errors.first?.keywordLocation == "/pattern")
    }

    @Test func largePatternsMatchLikeSmallOnes() throws {
        // Over 64 program steps: the backtracking engine; same answers.
        let long = try ECMARegex("^[a-z]{30}-[0-9]{40}$")
        #expect(long.matches(String(repeating: "x", count: 30) + "-" + String(repeating: "7", count: 40)))
        #expect(!long.matches(String(repeating: "x", count: 29) + "-" + String(repeating: "7", count: 40)))
        #expect(try ECMARegex("b[0-9]{70}").matches("ab" + String(repeating: "1", count: 70) + "c"))
    }

    @Test func invalidPatternIsASchemaErrorWithPointer() {
        do {
            _ = try Schema(compiling: ["properties": ["code": ["pattern": "^(abc"]]])
            Issue.record("an unterminated group must be rejected")
        } catch {
            #expect(error.pointer == "/properties/code/pattern")
            #expect(error.message.contains("unterminated group"))
        }
    }
}

/// The bitset matcher and the backtracking machine must agree on every pattern both can run.
@Suite struct RegexEngineAgreementTests {
    static let patterns = [
        "^([01][0-9]|2[0-3]):[0-5][0-9]$", "a+b*c?", "^(ab|a)(bc|c)$", "\\bfoo\\b", "\\Bo", "^$", "x*",
        "^[^0-9]+$", "colou?r", "(a|b)*abb", "^.{2,4}$", "[\\p{L}-]+", "^(?:a*)*b$", "\\d{3}-\\d{4}", "é+",
        "^\\s*\\w+\\s*$", "ab{0,2}c", "^(a|)+$", "[a-c][^a-c]", "🐲.🐉",
    ]
    static let inputs = [
        "", "a", "ab", "abb", "aabb", "abc", "bc", "12:30", "24:00", "09:59", "foo", "food", "a foo b", "boo",
        "color", "colour", "colouur", "ab", "abcd", "abcde", "héé", "555-1234", "  word  ", "ac", "abbc",
        "abbbc", "aaaa", "xyz", "ad", "🐲x🐉", "🐲🐉", "b", "aab", "-", "Ω-ß",
    ]

    @Test(arguments: patterns) func enginesAgree(_ pattern: String) throws {
        let regex = try ECMARegex(pattern)
        #expect(regex.usesBitsetMatcher, "\(pattern) should fit the bitset matcher")
        for input in Self.inputs {
            #expect(regex.search(input) == regex.search(input, backtrackingOnly: true), "/\(pattern)/ on \"\(input)\"")
        }
    }
}
