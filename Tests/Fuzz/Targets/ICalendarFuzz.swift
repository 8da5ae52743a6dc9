import ICalendar

/// The iCalendar reader: parse (leniently), serialize, read the events and to-dos and expand a bounded
/// window of occurrences. What a read document writes reads back to the same text: nothing the reader
/// skipped is lost by a rewrite.
func fuzzICalendar(_ input: [UInt8]) {
    guard let document = try? ICalendarDocument(parsing: String(decoding: input, as: UTF8.self)) else { return }
    let text = document.serialized()
    guard let again = try? ICalendarDocument(parsing: text), again.serialized() == text else {
        fatalError("a rewrite of what was read does not read back the same")
    }
    let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
    // 2026-01-01 … 2026-03-01 UTC.
    var warnings: [String] = []
    _ = document.occurrences(in: 1_767_225_600..<1_772_323_200, zones: zones, warnings: &warnings)
    _ = document.todos()
}
