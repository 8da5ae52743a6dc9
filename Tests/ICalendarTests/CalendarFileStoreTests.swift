import Foundation
import Synchronization
import ICalendar
import Testing

/// `CalendarFileStore` writes through SkillPosix's durable, locked writes: every update is whole, none is
/// lost to another writer, the file keeps its permissions and its link, no temporary file stays behind, and
/// a failure names the file and how to fix it.
@Suite("Calendar files: locked atomic updates")
struct CalendarFileStoreTests {
    func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "calendar-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Adds one `VJOURNAL` (kept as read, so it survives every rewrite) carrying `marker`.
    func addJournal(_ store: CalendarFileStore, _ marker: String) throws {
        try store.update { document in
            document.calendar.components.append(ICalComponent("VJOURNAL", properties: [ContentLine("SUMMARY", value: marker)]))
        }
    }

    func journals(_ store: CalendarFileStore) throws -> [String] {
        try store.read().calendar.components.filter { $0.name == "VJOURNAL" }.compactMap { $0.property("SUMMARY")?.value }
    }

    @Test("concurrent updates from many threads lose none, and leave no temporary file")
    func concurrentUpdates() throws {
        let folder = try folder()
        let store = CalendarFileStore(path: folder + "/work.ics")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            do { try addJournal(store, "entry \(index)") } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(Set(try journals(store)) == Set((0..<24).map { "entry \($0)" }))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names == ["work.ics"], "left behind: \(names)")
    }

    @Test("an update keeps the file's permissions, and a symbolic link stays a link to the file it names")
    func permissionsAndLinks() throws {
        let folder = try folder()
        let real = folder + "/real.ics"
        try addJournal(CalendarFileStore(path: real), "first")
        chmod(real, 0o600)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.ics", withDestinationPath: real)
        let linked = CalendarFileStore(path: folder + "/link.ics")
        try addJournal(linked, "second")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.ics") == real)
        #expect(try journals(CalendarFileStore(path: real)) == ["first", "second"])
        let mode = try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a line that does not parse is kept byte for byte when the file is written")
    func unreadableLineKept() throws {
        let folder = try folder()
        let path = folder + "/careless.ics"
        let text = "BEGIN:VCALENDAR\r\nthis is not a content line\r\nEND:VCALENDAR\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let store = CalendarFileStore(path: path)
        #expect(try store.read().skipped.map(\.line) == [2])
        try addJournal(store, "added")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("BEGIN:VCALENDAR\r\nthis is not a content line\r\nBEGIN:VJOURNAL\r\n"))
        #expect(try journals(store) == ["added"])
    }

    @Test("a file that is not UTF-8 is read, and never written: the error names the file and line")
    func notUTF8Kept() throws {
        let folder = try folder()
        let path = folder + "/latin1.ics"
        let bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Caf".utf8) + [0xE9]
            + Array("\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = CalendarFileStore(path: path)
        let document = try store.read()
        #expect(document.events().first?.summary == "Caf\u{FFFD}")
        #expect(document.skipped.first?.line == 3)
        #expect {
            try addJournal(store, "never")
        } throws: { error in
            "\(error)".hasPrefix(path + ": the file is not UTF-8 text (from line 3)") && "\(error)".contains("save the calendar as UTF-8")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["latin1.ics"])
    }

    @Test("a file in which nothing can be read is never overwritten; the error names the file and line")
    func unreadableFileKept() throws {
        let folder = try folder()
        let path = folder + "/bad.ics"
        let text = "this is not a calendar\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try addJournal(CalendarFileStore(path: path), "never")
        } throws: { error in
            guard let failure = error as? CalendarFileError else { return false }
            return failure.syntax?.line == 1 && failure.description.hasPrefix(path + ": line 1:")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["bad.ics"])
    }

    @Test("a file whose components stand outside any VCALENDAR is read, and nothing is added to it")
    func noCalendarKept() throws {
        let folder = try folder()
        let path = folder + "/bare.ics"
        let text = "BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let store = CalendarFileStore(path: path)
        #expect(try store.read().events().map(\.uid) == ["a"])
        #expect {
            try addJournal(store, "never")
        } throws: { error in
            "\(error)".hasPrefix(path + ": it holds no VCALENDAR (its VEVENT of line 1 stands alone)")
                && "\(error)".contains("wrap the file in BEGIN:VCALENDAR")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test("a file whose folder cannot be made fails in one line naming it and the fix")
    func unwritablePlace() throws {
        let folder = try folder()
        // A regular file where the calendar's folder should be: no user, root included, can create in it.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/plain"))
        let path = folder + "/plain/cal.ics"
        #expect {
            try addJournal(CalendarFileStore(path: path), "never")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(path + ": cannot open it for writing: Not a directory;") && !text.contains("\n")
        }
    }
}
