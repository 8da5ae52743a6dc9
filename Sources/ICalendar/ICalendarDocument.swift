/// An iCalendar file: its top-level components (normally one `VCALENDAR`), read and written so that what
/// this library does not understand survives a rewrite.
public struct ICalendarDocument: Sendable, Equatable {
    /// Top-level components in file order.
    public var components: [ICalComponent]

    /// A document holding `components`.
    public init(components: [ICalComponent]) { self.components = components }

    /// An empty calendar: `VERSION:2.0` and `PRODID` naming the writer.
    public static func empty(productID: String = "-//SkillHost//Calendar 1.0//EN") -> ICalendarDocument {
        ICalendarDocument(components: [
            ICalComponent(
                "VCALENDAR",
                properties: [ContentLine("VERSION", value: "2.0"), ContentLine("PRODID", value: productID)])
        ])
    }

    /// Reads a file's text (CRLF or LF line ends, folded lines).
    /// - Throws: ``ICalendarError`` naming line and column: a malformed content line, `END` without or
    ///   not matching its `BEGIN`, a component left open, a property outside any component, or no
    ///   `VCALENDAR` at all.
    public init(parsing text: String) throws(ICalendarError) {
        var stack: [ICalComponent] = []
        var top: [ICalComponent] = []
        for logical in LineFolding.unfold(text) {
            let property = try ContentLine(parsing: logical.text, line: logical.line, folded: logical.folded)
            switch property.name {
            case "BEGIN":
                let name = property.value.trimmingSpaces.uppercased()
                guard !name.isEmpty else {
                    throw ICalendarError(
                        line: logical.line, column: 7, message: "BEGIN without a component name",
                        remedy: "write BEGIN:VEVENT (or the component it opens)")
                }
                stack.append(ICalComponent(name, line: logical.line))
            case "END":
                let name = property.value.trimmingSpaces.uppercased()
                guard let open = stack.popLast() else {
                    throw ICalendarError(
                        line: logical.line, column: 1, message: "END:\(name) closes no open component",
                        remedy: "remove it or add the BEGIN:\(name) it belongs to")
                }
                guard open.name == name else {
                    throw ICalendarError(
                        line: logical.line, column: 5,
                        message: "END:\(name) does not match BEGIN:\(open.name) of line \(open.line)",
                        remedy: "close \(open.name) with END:\(open.name) first")
                }
                if stack.isEmpty { top.append(open) } else { stack[stack.count - 1].components.append(open) }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(
                        line: logical.line, column: 1, message: "property \(property.name) is outside any component",
                        remedy: "put it between BEGIN:VCALENDAR and END:VCALENDAR")
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last {
            throw ICalendarError(
                line: open.line, column: 1, message: "BEGIN:\(open.name) is never closed",
                remedy: "add END:\(open.name) (the file may be truncated)")
        }
        guard top.contains(where: { $0.name == "VCALENDAR" }) else {
            throw ICalendarError(
                line: 1, column: 1, message: "the file holds no VCALENDAR",
                remedy: "an iCalendar file starts with BEGIN:VCALENDAR and ends with END:VCALENDAR")
        }
        components = top
    }

    /// The first `VCALENDAR`.
    public var calendar: ICalComponent {
        get { components.first { $0.name == "VCALENDAR" } ?? ICalComponent("VCALENDAR") }
        set {
            if let index = components.firstIndex(where: { $0.name == "VCALENDAR" }) {
                components[index] = newValue
            } else {
                components.append(newValue)
            }
        }
    }

    /// The file text: CRLF line ends; lines read from a file as they were folded there, new or changed
    /// lines folded at 75 octets.
    public func serialized() -> String {
        var lines: [String] = []
        for component in components { component.appendLines(to: &lines) }
        return lines.map { $0 + "\r\n" }.joined()
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
