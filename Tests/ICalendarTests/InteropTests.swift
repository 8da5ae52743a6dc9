import Foundation
import ICalendar
import Testing

/// Interop is the test: files we write are read by Python's `icalendar` as we read them, and files it
/// writes, plus real-world style exports, are read by us as it reads them (events, times, zones, to-dos,
/// and occurrences as `recurring_ical_events` expands them).
@Suite(.serialized) struct InteropTests {
    static let from = CivilDateTime(year: 2026, month: 10, day: 1)
    static let to = CivilDateTime(year: 2027, month: 1, day: 1)

    func temporaryFile(_ name: String) -> String {
        NSTemporaryDirectory() + "skillhost-interop-\(UUID().uuidString.prefix(8))-\(name)"
    }

    func expectSameReading(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let ours = try PeerDump(ours: text, from: Self.from, to: Self.to).sorted()
        let theirs = try PythonPeer.dump(file, from: Self.from, to: Self.to).sorted()
        #expect(ours.events == theirs.events, sourceLocation: sourceLocation)
        #expect(ours.todos == theirs.todos, sourceLocation: sourceLocation)
        #expect(ours.occurrences == theirs.occurrences, sourceLocation: sourceLocation)
        #expect(!theirs.events.isEmpty || !theirs.todos.isEmpty, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "rfc5545-examples.ics", "google-export.ics", "outlook-export.ics", "mixed-content.ics",
        "long-ago-recurrences.ics",
    ])
    func realWorldExportsReadAsThePeerReadsThem(fixture: String) throws {
        try expectSameReading(PythonPeer.fixtures + "/" + fixture)
    }

    @Test func filesThePeerWritesReadAsThePeerReadsThem() throws {
        let file = temporaryFile("peer.ics")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try PythonPeer.write(file)
        try expectSameReading(file)
        let ours = try PeerDump(ours: try String(contentsOfFile: file, encoding: .utf8), from: Self.from, to: Self.to)
        #expect(ours.events.contains { $0.zone == "Europe/Berlin" && $0.offset == 3600 })
        #expect(ours.events.contains { $0.zone == "Asia/Tokyo" && $0.offset == 9 * 3600 })
    }

    @Test func filesWeWriteReadTheSameInThePeer() throws {
        let stamp = ICalDateValue(CivilDateTime(year: 2026, month: 11, day: 30, hour: 12), .utc)
        var document = ICalendarDocument.empty()
        let long = "Ünïcödé notes; with, separators\\ and\nnew lines " + String(repeating: "日本語のテキスト ", count: 12)
        document.calendar.components += [
            .event(
                uid: ComponentUID.make(idempotencyKey: "a"), stamp: stamp, title: "Dentist; bring card",
                start: ICalDateValue(CivilDateTime(year: 2026, month: 12, day: 1, hour: 9), .utc),
                end: ICalDateValue(CivilDateTime(year: 2026, month: 12, day: 1, hour: 9, minute: 45), .utc),
                location: "Main St, 5", notes: long),
            .event(
                uid: "allday@example.com", stamp: stamp, title: "Holiday",
                start: ICalDateValue(CivilDateTime(year: 2026, month: 12, day: 24), .date),
                end: ICalDateValue(CivilDateTime(year: 2026, month: 12, day: 26), .date)),
            .todo(
                uid: ComponentUID.make(idempotencyKey: "b"), stamp: stamp, title: "Workout",
                due: ICalDateValue(CivilDateTime(year: 2026, month: 12, day: 2, hour: 9), .utc), priority: 1,
                notes: "legs, core"),
        ]
        var done = ICalComponent.todo(uid: "done@example.com", stamp: stamp, title: "Old task")
        done.markCompleted(at: stamp)
        document.calendar.components.append(done)
        let file = temporaryFile("ours.ics")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try document.serialized().write(toFile: file, atomically: true, encoding: .utf8)
        try expectSameReading(file)
        let theirs = try PythonPeer.dump(file, from: Self.from, to: Self.to)
        #expect(theirs.events.contains { $0.notes == long && $0.summary == "Dentist; bring card" && $0.zone == "UTC" })
        #expect(theirs.todos.contains { $0.summary == "Old task" && $0.status == "COMPLETED" })
    }

    @Test(arguments: ["google-export.ics", "outlook-export.ics", "mixed-content.ics"])
    func exportsWeRewriteReadTheSameInThePeer(fixture: String) throws {
        var document = try ICalendarDocument(parsing: String(contentsOfFile: PythonPeer.fixtures + "/" + fixture, encoding: .utf8))
        let stamp = ICalDateValue(CivilDateTime(year: 2026, month: 11, day: 30, hour: 12), .utc)
        // As the calendar skill writes it: in the user's zone when the file carries that VTIMEZONE (the
        // Google-style export and the mixed file do), else in UTC.
        let berlin = try #require(SystemZone("Europe/Berlin"))
        document.calendar.components.append(
            .event(
                uid: "added@example.com", stamp: stamp, title: "Added by us",
                start: document.preferredValue(
                    ICalDateValue(CivilDateTime(year: 2026, month: 11, day: 20, hour: 8), .utc), zone: berlin),
                end: document.preferredValue(
                    ICalDateValue(CivilDateTime(year: 2026, month: 11, day: 20, hour: 9), .utc), zone: berlin)))
        if let index = document.calendar.components.firstIndex(where: { $0.name == "VTODO" }) {
            document.calendar.components[index].markCompleted(at: stamp)
        }
        let file = temporaryFile(fixture)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try document.serialized().write(toFile: file, atomically: true, encoding: .utf8)
        try expectSameReading(file)
        let added = try PythonPeer.dump(file, from: Self.from, to: Self.to).events.first { $0.uid == "added@example.com" }
        #expect(added?.start == "t:1795161600")
        #expect(added?.zone == (fixture == "outlook-export.ics" ? "UTC" : "Europe/Berlin"))
    }
}
