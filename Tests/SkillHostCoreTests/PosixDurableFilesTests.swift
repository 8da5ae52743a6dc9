import Foundation
@testable import SkillHostCore
import Testing

/// SkillPosix's durable writes and locks, which the registry, the caches, the calendar files and the finish
/// log share: a failure names the call and the file, and never leaves a temporary file behind.
@Suite("Posix: durable writes and locks")
struct PosixDurableFilesTests {
    func folder() throws -> String {
        let folder = HostTestSupport.temporaryDirectory("posix-durable")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("replaceFile writes the bytes with the mode asked for, and leaves only the file")
    func replaces() throws {
        let folder = try folder()
        let path = folder + "/state.json"
        try Posix.replaceFile(path, with: Array("one".utf8), mode: 0o600)
        try Posix.replaceFile(path, with: Array("two".utf8), mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
    }

    @Test("a rename that fails (a folder in the way) throws a Failure naming both paths and removes the temporary file")
    func failedRenameLeavesNothing() throws {
        let folder = try folder()
        let path = folder + "/taken"
        try HostTestSupport.write("x", to: path + "/inside")
        #expect {
            try Posix.replaceFile(path, with: [1, 2, 3])
        } throws: { error in
            guard let failure = error as? Posix.Failure else { return false }
            return failure.call == "rename" && failure.path.hasSuffix(" to " + path)
                && failure.description.hasPrefix("rename " + folder + "/.taken.")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["taken"])
    }

    @Test("the HostError face names the call, the file and the reason in one line")
    func hostErrorFace() throws {
        let folder = try folder()
        try HostTestSupport.write("x", to: folder + "/file")
        let error = #expect(throws: HostError.self) {
            try Posix.writeFileAtomically(folder + "/file/below", bytes: [1])
        }
        #expect(error?.kind == .io)
        #expect(error?.message.hasPrefix("mkdir \(folder)/file") == true || error?.message.hasPrefix("open \(folder)/file/") == true,
                "\(error?.message ?? "")")
        #expect(error?.message.contains("Not a directory") == true && error?.message.contains("\n") == false)
    }

    @Test("openLockedExclusively: a second lock on the file waits; a non-waiting one fails at once with EWOULDBLOCK")
    func locks() throws {
        let folder = try folder()
        let path = folder + "/file.lock"
        let held = try Posix.openLockedExclusively(path)
        let other = open(path, O_RDWR | O_CLOEXEC)
        defer { close(other) }
        #expect(throws: Posix.Failure("flock", path: path, code: EWOULDBLOCK)) {
            try Posix.lock(other, .exclusive, waiting: false, path: path)
        }
        Posix.unlock(held)
        try Posix.lock(other, .exclusive, waiting: false, path: path)
    }

    @Test("readAll stops past its limit, so the caller can refuse a file that is too large")
    func readAllLimit() throws {
        let folder = try folder()
        try HostTestSupport.write(String(repeating: "a", count: 200_000), to: folder + "/big")
        #expect(throws: HostError.self) { try Posix.readFile(atPath: folder + "/big", limit: 100_000) }
        #expect(try Posix.readFile(atPath: folder + "/big").count == 200_000)
    }
}
