extension ICalComponent {
    /// A new VEVENT as the calendar skills write it: UID, DTSTAMP, CREATED, SUMMARY, DTSTART, DTEND, then
    /// LOCATION and DESCRIPTION when given (text escaped).
    public static func event(
        uid: String, stamp: ICalDateValue, title: String, start: ICalDateValue, end: ICalDateValue,
        location: String? = nil, notes: String? = nil
    ) -> ICalComponent {
        var event = ICalComponent("VEVENT")
        event.properties = [
            ContentLine("UID", value: uid), stamp.property("DTSTAMP"), stamp.property("CREATED"),
            ContentLine("SUMMARY", value: ICalText.escape(title)), start.property("DTSTART"), end.property("DTEND"),
        ]
        if let location, !location.isEmpty { event.properties.append(ContentLine("LOCATION", value: ICalText.escape(location))) }
        if let notes, !notes.isEmpty { event.properties.append(ContentLine("DESCRIPTION", value: ICalText.escape(notes))) }
        return event
    }

    /// A new VTODO as the reminders skills write it: UID, DTSTAMP, CREATED, SUMMARY, STATUS:NEEDS-ACTION,
    /// then DUE, PRIORITY (1–9) and DESCRIPTION when given.
    public static func todo(
        uid: String, stamp: ICalDateValue, title: String, due: ICalDateValue? = nil, priority: Int? = nil,
        notes: String? = nil
    ) -> ICalComponent {
        var todo = ICalComponent("VTODO")
        todo.properties = [
            ContentLine("UID", value: uid), stamp.property("DTSTAMP"), stamp.property("CREATED"),
            ContentLine("SUMMARY", value: ICalText.escape(title)), ContentLine("STATUS", value: "NEEDS-ACTION"),
        ]
        if let due { todo.properties.append(due.property("DUE")) }
        if let priority { todo.properties.append(ContentLine("PRIORITY", value: String(priority))) }
        if let notes, !notes.isEmpty { todo.properties.append(ContentLine("DESCRIPTION", value: ICalText.escape(notes))) }
        return todo
    }

    /// Marks a VTODO done at `stamp`: STATUS:COMPLETED, COMPLETED, PERCENT-COMPLETE:100, and a new DTSTAMP
    /// and LAST-MODIFIED; every other property stays as it was.
    public mutating func markCompleted(at stamp: ICalDateValue) {
        set(ContentLine("STATUS", value: "COMPLETED"))
        set(stamp.property("COMPLETED"))
        set(ContentLine("PERCENT-COMPLETE", value: "100"))
        set(stamp.property("DTSTAMP"))
        set(stamp.property("LAST-MODIFIED"))
    }
}
