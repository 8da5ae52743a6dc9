import ICalendar

/// The iCalendar reader: parse, serialize, read the events and expand a bounded window of occurrences.
func fuzzICalendar(_ input: [UInt8]) {
    guard let document = try? ICalendarDocument(parsing: String(decoding: input, as: UTF8.self)) else { return }
    _ = document.serialized()
    guard let zones = try? ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc) else { return }
    // 2026-01-01 … 2026-03-01 UTC.
    _ = try? document.occurrences(in: 1_767_225_600..<1_772_323_200, zones: zones)
}
