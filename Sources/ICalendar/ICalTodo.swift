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
        uid = component.property("UID")?.value.trimmingSpaces
        summary = component.property("SUMMARY")?.text
        notes = component.property("DESCRIPTION")?.text
        var skipped: [ICalendarError] = []
        var due: ICalDateValue?
        if let line = component.property("DUE") {
            do { due = try ICalDateValue(line) } catch { skipped.append(error.skipping) }
        }
        self.due = due
        var completed: ICalDateValue?
        if let line = component.property("COMPLETED") {
            do { completed = try ICalDateValue(line) } catch { skipped.append(error.skipping) }
        }
        self.completed = completed
        let level = component.property("PRIORITY").flatMap { Int($0.value.trimmingSpaces) }
        priority = level.flatMap { (1...9).contains($0) ? $0 : nil }
        status = component.property("STATUS")?.value.trimmingSpaces.uppercased()
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
