import Foundation
import SkillHostCore
import Testing

@Suite("ELF structure checks before dlopen")
struct ELFCheckTests {
    func copy(_ bytes: Data, _ name: String) throws -> String {
        let path = HostTestSupport.temporaryDirectory("elf") + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    func message(_ path: String) -> String? {
        do {
            try ELFCheck.check(path: path)
            return nil
        } catch {
            #expect(error.kind == .invalidPlugin)
            #expect(error.message.hasPrefix(path + ": "))
            return error.message
        }
    }

    @Test("a shared library for this machine passes")
    func sharedLibraryPasses() throws {
        try ELFCheck.check(path: try HostTestSupport.fixturePlugin())
    }

    @Test("a file that is not ELF is refused")
    func notELF() throws {
        let path = try copy(Data("#!/bin/sh\necho hi\n".utf8), "script.so")
        #expect(message(path)?.contains("not an ELF file") == true)
    }

    @Test("a file shorter than the ELF header is refused as truncated")
    func truncatedHeader() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: try HostTestSupport.fixturePlugin()))
        let path = try copy(original.prefix(40), "short.so")
        #expect(message(path)?.contains("truncated") == true)
    }

    @Test("a library cut after its headers is refused as truncated (dlopen would die with SIGBUS)")
    func truncatedSegments() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: try HostTestSupport.fixturePlugin()))
        let path = try copy(original.prefix(original.count / 2), "half.so")
        #expect(message(path)?.contains("truncated") == true)
    }

    @Test("a library for another machine is refused (e_machine patched)")
    func wrongMachine() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try HostTestSupport.fixturePlugin()))
        let other: UInt16 = ELFCheck.hostMachine == 62 ? 183 : 62
        bytes[18] = UInt8(other & 0xFF)
        bytes[19] = UInt8(other >> 8)
        let path = try copy(bytes, "arm.so")
        #expect(message(path)?.contains("(ELF machine \(other)), this host is") == true, "\(message(path) ?? "")")
    }

    @Test("a 32-bit ELF file is refused")
    func thirtyTwoBit() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try HostTestSupport.fixturePlugin()))
        bytes[4] = 1
        let path = try copy(bytes, "i386.so")
        #expect(message(path)?.contains("32-bit") == true)
    }

    @Test("a PIE executable named .so is refused")
    func executable() throws {
        let path = try HostTestSupport.fixturePlugin(shared: false)
        #expect(message(path)?.contains("executable") == true)
    }

    @Test("a missing file is not found")
    func missing() {
        #expect(throws: HostError.self) { try ELFCheck.check(path: "/nonexistent/plugin.so") }
    }
}
