import Foundation
@testable import SkillHostCore
import Testing

/// SkillPosix's durable writes and locks, which the registry, the caches, the calendar files and the finish
/// log share: a failure names the call and the file, and never leaves a temporary file behind; the next
/// write removes what a writer that died left.
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

    @Test("the next write removes the temporary files of writers that died, and leaves those of live writers")
    func abandonedTemporariesAreRemoved() throws {
        let folder = try folder()
        let path = folder + "/calendar.ics"
        // A writer killed mid-write an hour ago: its temporary file is unlocked and old.
        let dead = folder + "/.calendar.ics.4000000.17.tmp"
        try HostTestSupport.write("half", to: dead)
        let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        #expect(utimensat(AT_FDCWD, dead, [hourAgo, hourAgo], 0) == 0)
        // A writer at work: its temporary file is locked.
        let live = folder + "/.calendar.ics.4000001.18.tmp"
        try HostTestSupport.write("writing", to: live)
        #expect(utimensat(AT_FDCWD, live, [hourAgo, hourAgo], 0) == 0)
        let held = open(live, O_RDONLY | O_CLOEXEC)
        defer { close(held) }
        #expect(flock(held, LOCK_EX) == 0)
        // A temporary file just made by a process that lives (this one): it may not have locked it yet.
        let young = folder + "/.calendar.ics.\(getpid()).19.tmp"
        try HostTestSupport.write("new", to: young)
        // Another file's temporaries are not this file's business.
        let other = folder + "/.registry.json.4000003.20.tmp"
        try HostTestSupport.write("other", to: other)
        #expect(utimensat(AT_FDCWD, other, [hourAgo, hourAgo], 0) == 0)

        try Posix.replaceFile(path, with: Array("BEGIN:VCALENDAR\r\n".utf8))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == ["calendar.ics", ".calendar.ics.4000001.18.tmp", ".calendar.ics.\(getpid()).19.tmp", ".registry.json.4000003.20.tmp"])
        // A writer that died a moment ago (no process has its id) is gone without waiting.
        let justDied = folder + "/.calendar.ics.4000004.21.tmp"
        try HostTestSupport.write("half", to: justDied)
        try Posix.replaceFile(path, with: Array("BEGIN:VCALENDAR\r\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: justDied))
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
