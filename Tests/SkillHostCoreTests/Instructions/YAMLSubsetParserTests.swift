import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

@Suite("YAML subset parser")
struct YAMLSubsetParserTests {
    static func parse(_ text: String) throws -> JSONValue { try YAMLSubsetParser.parse(text) }

    static func failure(_ text: String) -> YAMLSubsetError? {
        do {
            _ = try YAMLSubsetParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func blockMappingsNestedMappingsAndSequences() throws {
        let value = try Self.parse("""
            name: pdf-tools
            description: Extract text from PDF files # a comment
            metadata:
              author: example-org
              version: "1.0"
            allowed-tools:
              - Read
              - Bash(git:*)
            items:
            - one
            - key: a
              other: b
            - - nested
              - list
            """)
        #expect(value["name"] == "pdf-tools")
        #expect(value["description"] == "Extract text from PDF files")
        #expect(value["metadata"] == ["author": "example-org", "version": "1.0"])
        #expect(value["allowed-tools"] == ["Read", "Bash(git:*)"])
        #expect(value["items"] == ["one", ["key": "a", "other": "b"], ["nested", "list"]])
    }

    @Test func scalarsStayStringsAsStrictYAMLReadsThem() throws {
        let value = try Self.parse("a: 1.10\nb: true\nc: null\nd:\ne: ~\n")
        #expect(value == ["a": "1.10", "b": "true", "c": "null", "d": "", "e": "~"])
    }

    @Test func quotedScalarsWithEscapes() throws {
        let value = try Self.parse(#"""
            a: "tab\there \"quoted\" \u00e9 \x41 \\ \/"
            b: 'it''s # not a comment'
            c: "folded
              across lines"
            d: "joined\
              here"
            "quoted key": 'value'
            """#)
        #expect(value["a"] == "tab\there \"quoted\" é A \\ /")
        #expect(value["b"] == "it's # not a comment")
        #expect(value["c"] == "folded across lines")
        #expect(value["d"] == "joinedhere")
        #expect(value["quoted key"] == "value")
    }

    @Test func plainScalarsContinueOnMoreIndentedLines() throws {
        let value = try Self.parse("description: first part\n  second part\n\n  new paragraph\nname: x\n")
        #expect(value["description"] == "first part second part\nnew paragraph")
        #expect(value["name"] == "x")
    }

    @Test func literalAndFoldedBlocks() throws {
        let value = try Self.parse("""
            literal: |
              line one
                indented
              line three

            folded: >
              one
              two

              three
            strip: |-
              text
            keep: |+
              text

            after: end
            """)
        #expect(value["literal"] == "line one\n  indented\nline three\n")
        #expect(value["folded"] == "one two\nthree\n")
        #expect(value["strip"] == "text")
        #expect(value["keep"] == "text\n\n")
        #expect(value["after"] == "end")
    }

    @Test func flowSequences() throws {
        let value = try Self.parse(#"tools: [Read, "Write", 'Edit', [a, b]]"#)
        #expect(value["tools"] == ["Read", "Write", "Edit", ["a", "b"]])
        #expect(try Self.parse("empty: []")["empty"] == [])
    }

    @Test func crlfLineEnds() throws {
        let value = try Self.parse("name: x\r\ndescription: |\r\n  a\r\n  b\r\n")
        #expect(value == ["name": "x", "description": "a\nb\n"])
    }

    @Test(arguments: [
        ("a: &anchor value", 1, 4, "anchors"),
        ("a: *alias", 1, 4, "aliases"),
        ("a: !!str value", 1, 4, "tags"),
        ("a: {b: c}", 1, 4, "flow mappings"),
        ("a: b\na: c", 2, 1, "duplicate key 'a'"),
        ("a: b\n---\nc: d", 2, 1, "multiple documents"),
        ("a: b\n...", 2, 1, "multiple documents"),
        ("%YAML 1.2\na: b", 1, 1, "directives"),
        ("? complex\n: key", 1, 1, "complex keys"),
        ("a:\n\tb: c", 2, 1, "tabs"),
        ("a: b: c", 1, 5, "': '"),
        ("a: \"never closed", 1, 4, "never closes"),
        ("a: [one, two", 1, 4, "never closes"),
        ("a: b\n  c: d", 2, 4, "': '"),
        ("a:\n  b: c\n d: e", 3, 2, "indentation"),
        ("a: \"bad \\q escape\"", 1, 9, "unknown escape"),
        ("a: \u{1}", 1, 4, "control character U+0001"),
        ("just text\nmore: x", 2, 5, "': '"),
    ])
    func outsideTheSubsetIsAnErrorWithPosition(text: String, line: Int, column: Int, words: String) {
        let error = Self.failure(text)
        #expect(error != nil, "accepted: \(text)")
        #expect(error?.line == line, "\(text): \(String(describing: error))")
        #expect(error?.column == column, "\(text): \(String(describing: error))")
        #expect(error?.reason.contains(words) == true, "\(text): \(String(describing: error))")
    }

    @Test func nestingIsCapped() {
        var text = ""
        for depth in 0..<100 { text += String(repeating: " ", count: depth) + "k:\n" }
        text += String(repeating: " ", count: 100) + "k: v\n"
        #expect(Self.failure(text)?.reason.contains("nesting deeper") == true)
        let flow = "a: " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(Self.failure(flow)?.reason.contains("nesting deeper") == true)
    }

    /// Real frontmatter shapes (as in public skill collections) that the fuzz loop mutates.
    static let seeds: [String] = [
        """
        name: pdf-processing
        description: Extract text and tables from PDF files, fill forms, merge documents. Use when working with PDF files.
        license: Apache-2.0
        metadata:
          author: example-org
          version: "1.0"
        """,
        """
        name: time-zones
        description: >
          How to answer scheduling questions across time zones with the clock skills.
          Use when a user asks what time it is elsewhere.
        compatibility: Requires the bundled clock plugin
        allowed-tools: [clock.now, clock.convert]
        """,
        """
        name: "writing-summaries"
        description: 'Summarize text with the text skills: word counts, key sentences.'
        allowed-tools:
          - text.count
          - text.summarize
        metadata:
          tags: "writing, text"
        notes: |
          Literal block
            with indentation
        """,
    ]

    /// Random bytes and mutations of real frontmatter never crash or hang the parser; each input either parses
    /// or fails with a position inside the text. Bounded: a fixed count with a seeded generator.
    @Test func fuzzRandomBytesAndMutatedRealFiles() {
        var generator = SeededGenerator(seed: 0x5EED_11)
        let alphabet = Array("abc:-#'\"|>[]{},&*!?% \n\t\r\\xu0123é".unicodeScalars)
        var parsed = 0
        var failed = 0
        let start = ContinuousClock.now
        for round in 0..<4000 {
            var text: String
            if round % 4 == 0 {
                let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                var scalars = Array(Self.seeds[round % Self.seeds.count].unicodeScalars)
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let position = Int.random(in: 0...scalars.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: scalars.insert(alphabet.randomElement(using: &generator)!, at: position)
                    case 1: if position < scalars.count { scalars.remove(at: position) }
                    default:
                        if position < scalars.count { scalars[position] = alphabet.randomElement(using: &generator)! }
                    }
                }
                text = String(String.UnicodeScalarView(scalars))
            }
            do {
                _ = try YAMLSubsetParser.parse(text)
                parsed += 1
            } catch {
                failed += 1
                let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(error.line >= 1 && error.line <= lineCount + 1, "\(error) for \(text.debugDescription)")
                #expect(error.column >= 1)
            }
        }
        #expect(parsed > 100 && failed > 100, "parsed \(parsed), failed \(failed)")
        #expect(ContinuousClock.now - start < .seconds(60))
    }
}
