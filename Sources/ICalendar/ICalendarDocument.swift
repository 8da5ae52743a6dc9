/// An iCalendar file: its top-level components (normally one `VCALENDAR`), read and written so that what
/// this library does not understand survives a rewrite.
///
/// Reading is lenient, as calendar programs must be with the files people have: a line that is not a
/// content line, a property outside any component, an `END` that closes nothing, a misspelt `END` and a
/// component the file never closes are read past, each noted in ``skipped`` with its line, and kept so
/// that a rewrite writes them back as they were. Only text in which no component can be read at all is
/// refused.
public struct ICalendarDocument: Sendable, Equatable {
    /// A line outside every component, kept where it was: after the first `position` top-level components.
    struct StrayLine: Sendable, Equatable {
        var position: Int
        var line: ContentLine
    }

    /// Top-level components in file order.
    public var components: [ICalComponent]
    /// Lines outside every component, written back where they were.
    var strayLines: [StrayLine] = []
    /// What the reader read past, in file order: each names its line, what was skipped or repaired and
    /// why, and how to fix the file. Empty for a well-formed file.
    public var skipped: [ICalendarError] = []
    /// Set when writing the document back could change bytes the file holds (it was not UTF-8 text):
    /// why, and how to fix it.
    public var rewriteRefusal: ICalendarError?

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

    /// Reads a file's text (CRLF or LF line ends, folded lines), leniently: see ``skipped``.
    /// - Throws: ``ICalendarError`` when no component at all can be read from the text.
    public init(parsing text: String) throws(ICalendarError) {
        var reader = Reader()
        for logical in LineFolding.unfold(text) { reader.read(logical) }
        reader.closeAll()
        guard !reader.top.isEmpty else {
            throw reader.skipped.first.map { first in
                ICalendarError(
                    line: first.line, column: first.column,
                    message: "no iCalendar component can be read (\(first.message))",
                    remedy: "an iCalendar file starts with BEGIN:VCALENDAR and ends with END:VCALENDAR")
            } ?? ICalendarError(
                line: 1, column: 1, message: "the file holds no VCALENDAR",
                remedy: "an iCalendar file starts with BEGIN:VCALENDAR and ends with END:VCALENDAR")
        }
        if !reader.top.contains(where: { $0.name == "VCALENDAR" }) {
            let first = reader.top[0]
            reader.skipped.append(
                ICalendarError(
                    line: first.line, column: 1,
                    message: "the file holds no VCALENDAR: its \(first.name) and what follows are read as if inside one",
                    remedy: "wrap the file in BEGIN:VCALENDAR … END:VCALENDAR (nothing can be added to it until then)"))
        }
        components = reader.top
        strayLines = reader.stray
        skipped = reader.skipped.sorted { $0.line < $1.line }
    }

    /// The reading of one file, line by line (a struct of its own, so that the open components are stored
    /// properties rather than variables captured by closures).
    private struct Reader {
        var stack: [ICalComponent] = []
        var top: [ICalComponent] = []
        var stray: [StrayLine] = []
        var skipped: [ICalendarError] = []

        mutating func read(_ logical: LineFolding.LogicalLine) {
            let property: ContentLine
            do {
                // ContentLine.leniently, without copying the line read on the common path.
                property = try ContentLine(parsing: logical.text, line: logical.line, folded: logical.folded)
            } catch {
                guard let repaired = ContentLine.repaired(logical.text, line: logical.line, folded: logical.folded) else {
                    skip(logical, column: error.column, error.message, error.remedy)
                    return
                }
                property = repaired
            }
            switch property.name {
            case "BEGIN":
                let name = property.value.trimmingSpaces.uppercased()
                guard !name.isEmpty else {
                    skip(logical, column: 7, "BEGIN without a component name", "write BEGIN:VEVENT (or the component it opens)")
                    return
                }
                var component = ICalComponent(name, line: logical.line)
                component.beginText = logical.folded
                stack.append(component)
            case "END":
                let name = property.value.trimmingSpaces.uppercased()
                guard !stack.isEmpty else {
                    skip(logical, column: 1, "END:\(name) closes no open component", "remove it or add the BEGIN:\(name) it belongs to")
                    return
                }
                let innermost = (name: stack[stack.count - 1].name, line: stack[stack.count - 1].line)
                if innermost.name != name, stack.contains(where: { $0.name == name }) {
                    // END of an outer component: the ones inside it were never closed.
                    while stack.last!.name != name {
                        let open = stack.removeLast()
                        skipped.append(
                            ICalendarError(
                                line: open.line, column: 1,
                                message: "BEGIN:\(open.name) is never closed; it ends at END:\(name) of line \(logical.line)",
                                remedy: "add END:\(open.name) before line \(logical.line)"))
                        close(open)
                    }
                } else if innermost.name != name {
                    // A misspelt END (END:VCALENDARD, END:VTOOD) closes the innermost component, as other
                    // readers take it, and is written back as it was.
                    skipped.append(
                        ICalendarError(
                            line: logical.line, column: 5,
                            message: "END:\(name) is read as the END of BEGIN:\(innermost.name) of line \(innermost.line)",
                            remedy: "write it as END:\(innermost.name)"))
                }
                var open = stack.removeLast()
                open.endText = logical.folded
                close(open)
            default:
                guard !stack.isEmpty else {
                    skipped.append(
                        ICalendarError(
                            line: logical.line, column: 1,
                            message: "skipped \(ICalendarDocument.quoted(logical.text)): property \(property.name) is outside any component",
                            remedy: "put it between BEGIN:VCALENDAR and END:VCALENDAR"))
                    keep(property)
                    return
                }
                stack[stack.count - 1].properties.append(property)
            }
        }

        /// Closes every component still open at the end of the file.
        mutating func closeAll() {
            while let open = stack.popLast() {
                skipped.append(
                    ICalendarError(
                        line: open.line, column: 1,
                        message: "BEGIN:\(open.name) is never closed; read up to the end of the file",
                        remedy: "add END:\(open.name) (the file may be truncated)"))
                close(open)
            }
        }

        private mutating func keep(_ line: ContentLine) {
            if stack.isEmpty {
                stray.append(StrayLine(position: top.count, line: line))
            } else {
                stack[stack.count - 1].properties.append(line)
            }
        }

        private mutating func skip(_ logical: LineFolding.LogicalLine, column: Int, _ why: String, _ remedy: String) {
            skipped.append(
                ICalendarError(
                    line: logical.line, column: column,
                    message: "skipped \(ICalendarDocument.quoted(logical.text)): \(why)", remedy: remedy))
            keep(ContentLine(unreadable: logical.text, line: logical.line, folded: logical.folded))
        }

        private mutating func close(_ component: ICalComponent) {
            if stack.isEmpty { top.append(component) } else { stack[stack.count - 1].components.append(component) }
        }
    }

    /// A line's text for a message: quoted, at most 60 characters.
    static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : String($0) }.joined()
        return "\"" + (shown.count > 60 ? String(shown.prefix(57)) + "…" : shown) + "\""
    }

    /// The first `VCALENDAR`. Setting it replaces that one, or adds one when the file has none.
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

    /// Whether the file has a `VCALENDAR` (one that holds no other component is read all the same).
    public var hasCalendar: Bool { components.contains { $0.name == "VCALENDAR" } }

    /// Every component of kind `name` (e.g. VEVENT) in the file, at any depth, in file order: those of
    /// every VCALENDAR, those outside one, and those inside other components, as Python's `icalendar`
    /// walks a file.
    public func all(_ name: String) -> [ICalComponent] {
        var found: [ICalComponent] = []
        for component in components {
            if component.name == name { found.append(component) }
            found += component.descendants(named: name)
        }
        return found
    }

    /// Where each component of kind `name` is, in the order of ``all(_:)``: index paths from the top level
    /// (`[0, 3]` is the fourth component of the first top-level one).
    public func paths(of name: String) -> [[Int]] {
        func walk(_ component: ICalComponent, _ path: [Int], into found: inout [[Int]]) {
            for (index, child) in component.components.enumerated() {
                if child.name == name { found.append(path + [index]) }
                walk(child, path + [index], into: &found)
            }
        }
        var found: [[Int]] = []
        for (index, component) in components.enumerated() {
            if component.name == name { found.append([index]) }
            walk(component, [index], into: &found)
        }
        return found
    }

    /// The component at an index path of ``paths(of:)``.
    public subscript(path path: [Int]) -> ICalComponent {
        get {
            var component = components[path[0]]
            for index in path.dropFirst() { component = component.components[index] }
            return component
        }
        set {
            func replace(_ component: inout ICalComponent, _ rest: ArraySlice<Int>) {
                guard let first = rest.first else {
                    component = newValue
                    return
                }
                replace(&component.components[first], rest.dropFirst())
            }
            replace(&components[path[0]], path.dropFirst())
        }
    }

    /// The file text: CRLF line ends; lines read from a file as they were folded there, new or changed
    /// lines folded at 75 octets.
    public func serialized() -> String {
        var lines: [String] = []
        var stray = strayLines[...]
        for (index, component) in components.enumerated() {
            while let line = stray.first, line.position <= index {
                lines.append(line.line.folded)
                stray.removeFirst()
            }
            component.appendLines(to: &lines)
        }
        for line in stray { lines.append(line.line.folded) }
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
