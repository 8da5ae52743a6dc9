import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

@Suite("SKILL.md documents")
struct SkillDocumentTests {
    static func document(_ bytes: [UInt8]) -> Result<SkillDocument, SkillDocument.Failure> {
        Result { () throws(SkillDocument.Failure) -> SkillDocument in try SkillDocument(bytes: bytes) }
    }

    @Test func aByteOrderMarkAndCRLFLineEndsAreAccepted() throws {
        let text = "\u{FEFF}---\r\nname: bom-skill\r\ndescription: |\r\n  Two\r\n  lines\r\n---\r\n\r\n# Body\r\nText.\r\n"
        let document = try Self.document(Array(text.utf8)).get()
        #expect(document.frontmatter["name"] == "bom-skill")
        #expect(document.frontmatter["description"] == "Two\nlines\n")
        #expect(document.body == "# Body\nText.")
        #expect(document.bodyFirstLine == 8)
    }

    @Test(arguments: [
        ("name: x\n", "SKILL.md must start with YAML frontmatter (---)"),
        ("---\nname: x\n", "SKILL.md frontmatter not properly closed with ---"),
        ("---\n- a\n---\n", "SKILL.md frontmatter must be a YAML mapping"),
        ("---\nname: &a x\n---\n", "Invalid YAML in frontmatter: line 2, column 7: anchors (&name) are not supported; write the value out"),
    ])
    func failuresUseTheReferenceWording(text: String, message: String) {
        guard case .failure(let failure) = Self.document(Array(text.utf8)) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(failure.message == message)
    }

    @Test func bytesThatAreNotUTF8AreReportedWithTheirPosition() {
        let bytes = Array("---\nname: ok\n".utf8) + [0x61, 0xFF, 0x62]
        guard case .failure(let failure) = Self.document(bytes) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(failure.message == "SKILL.md is not UTF-8 text (byte 0xFF at line 3, column 2); save it as UTF-8")
    }

    @Test func aFileOverTheSizeLimitIsRefusedWithoutReadingIt() throws {
        let folder = HostTestSupport.temporaryDirectory("big-skill")
        let path = folder + "/SKILL.md"
        try #require(FileManager.default.createFile(atPath: path, contents: Data("---\n".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.truncateFile(atOffset: UInt64(SkillDocument.maximumFileSize + 1))
        handle.closeFile()
        #expect(throws: SkillDocument.Failure.self) { try InstructionSkillValidator.read(path) }
    }
}
