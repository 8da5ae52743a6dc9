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

    /// Reads a VTODO.
    /// - Throws: ``ICalendarError`` at a property's line when DUE, DTSTART or COMPLETED is malformed.
    public init(_ component: ICalComponent) throws(ICalendarError) {
        self.component = component
        uid = component.property("UID")?.value.trimmingSpaces
        summary = component.property("SUMMARY")?.text
        notes = component.property("DESCRIPTION")?.text
        due = try component.property("DUE").map { line throws(ICalendarError) in try ICalDateValue(line) }
        completed = try component.property("COMPLETED").map { line throws(ICalendarError) in try ICalDateValue(line) }
        let level = component.property("PRIORITY").flatMap { Int($0.value.trimmingSpaces) }
        priority = level.flatMap { (1...9).contains($0) ? $0 : nil }
        status = component.property("STATUS")?.value.trimmingSpaces.uppercased()
    }

    /// Whether it is done: STATUS COMPLETED (or CANCELLED), or a COMPLETED time without a STATUS.
    public var isDone: Bool {
        if let status { return status == "COMPLETED" || status == "CANCELLED" }
        return completed != nil
    }
}

extension ICalendarDocument {
    /// The VTODOs of the VCALENDAR.
    /// - Throws: ``ICalendarError`` for the first one that cannot be read.
    public func todos() throws(ICalendarError) -> [ICalTodo] {
        var todos: [ICalTodo] = []
        for component in calendar.components where component.name == "VTODO" {
            todos.append(try ICalTodo(component))
        }
        return todos
    }
}
