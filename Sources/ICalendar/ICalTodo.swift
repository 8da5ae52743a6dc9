/// A VTODO read as a reminder: text fields, due time, priority and whether it is done.
public struct ICalTodo: Sendable {
    public let component: ICalComponent
    public let uid: String?
    public let summary: String?
    public let notes: String?
    public let due: ICalDateValue?
    /// 1 (highest) … 9 (lowest); nil when absent or 0 (undefined).
    public let priority: Int?
    /// STATUS, uppercase (NEEDS-ACTION, COMPLETED, IN-PROCESS, CANCELLED); nil when absent.
    public let status: String?
    public let completed: ICalDateValue?

    /// The properties left out because they cannot be read (DUE, DTSTART or COMPLETED that is not a date
    /// or date-time): each names its line, what and why.
    public let skipped: [ICalendarError]

    /// Reads a VTODO leniently: a DUE or COMPLETED that cannot be read is left out and named in
    /// ``skipped``; the to-do is listed without it.
    public init(_ component: ICalComponent) {
        self.component = component
        // One pass over the properties: the first of each.
        var first: [String: ContentLine] = [:]
        for property in component.properties {
            switch property.name {
            case "UID", "SUMMARY", "DESCRIPTION", "DUE", "COMPLETED", "PRIORITY", "STATUS":
                if first[property.name] == nil { first[property.name] = property }
            default: break
            }
        }
        var skipped: [ICalendarError] = []
        var due: ICalDateValue?
        var completed: ICalDateValue?
        for (name, slot) in [("DUE", 0), ("COMPLETED", 1)] {
            guard let line = first[name] else { continue }
            do {
                let value = try ICalDateValue(line)
                if slot == 0 { due = value } else { completed = value }
            } catch {
                skipped.append(
                    ICalendarError(line: error.line, column: error.column, message: "skipped \(error.message)", remedy: error.remedy))
            }
        }
        self.due = due
        self.completed = completed
        uid = first["UID"]?.value.trimmingSpaces
        summary = first["SUMMARY"]?.text
        notes = first["DESCRIPTION"]?.text
        let level = first["PRIORITY"].flatMap { Int($0.value.trimmingSpaces) }
        priority = level.flatMap { (1...9).contains($0) ? $0 : nil }
        status = first["STATUS"]?.value.trimmingSpaces.uppercased()
        self.skipped = skipped
    }

    /// Whether it is done: STATUS COMPLETED (or CANCELLED), or a COMPLETED time without a STATUS.
    public var isDone: Bool {
        if let status { return status == "COMPLETED" || status == "CANCELLED" }
        return completed != nil
    }
}

extension ICalendarDocument {
    /// The VTODOs of the file (in every VCALENDAR, and any outside or nested in other components), in
    /// file order.
    public func todos() -> [ICalTodo] {
        all("VTODO").map(ICalTodo.init)
    }
}
