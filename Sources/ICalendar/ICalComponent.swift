/// A component (`BEGIN:NAME` … `END:NAME`): its properties and sub-components in file order. Components
/// and properties this library does not know (VJOURNAL, VALARM, X- names) are kept as read.
public struct ICalComponent: Sendable, Equatable {
    /// The component name, uppercase (`VCALENDAR`, `VEVENT`).
    public var name: String
    /// Properties in file order.
    public var properties: [ContentLine]
    /// Sub-components in file order.
    public var components: [ICalComponent]
    /// The line of its `BEGIN`; 0 for a component built in memory.
    public var line: Int
    /// Its `BEGIN` and `END` lines as read (`begin:vevent`, a misspelt `END:VTOOD` that closed it), written
    /// back unchanged; nil when built in memory, and `end` also when the file never closed it.
    var beginText: String?
    var endText: String?

    /// A component built in memory.
    public init(_ name: String, properties: [ContentLine] = [], components: [ICalComponent] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = line
    }

    /// The first property named `name` (any case).
    public func property(_ name: String) -> ContentLine? {
        // Names are stored uppercase and callers mostly ask in uppercase: skip the conversion then.
        if let found = properties.first(where: { $0.name == name }) { return found }
        let wanted = name.uppercased()
        return wanted == name ? nil : properties.first { $0.name == wanted }
    }

    /// Every property named `name` (any case).
    public func properties(named name: String) -> [ContentLine] {
        let wanted = name.utf8.contains(where: { (0x61...0x7A).contains($0) }) ? name.uppercased() : name
        return properties.filter { $0.name == wanted }
    }

    /// Replaces every property named like `property` with it (at the first one's place), or appends it.
    public mutating func set(_ property: ContentLine) {
        if let first = properties.firstIndex(where: { $0.name == property.name }) {
            properties[first] = property
            var index = properties.count - 1
            while index > first {
                if properties[index].name == property.name { properties.remove(at: index) }
                index -= 1
            }
        } else {
            properties.append(property)
        }
    }

    /// Removes every property named `name`.
    public mutating func remove(_ name: String) {
        let wanted = name.uppercased()
        properties.removeAll { $0.name == wanted }
    }

    /// The folded lines of this component, `BEGIN` to `END` (as read, when read from a file).
    func appendLines(to lines: inout [String]) {
        lines.append(beginText ?? "BEGIN:" + name)
        for property in properties { lines.append(property.folded) }
        for component in components { component.appendLines(to: &lines) }
        lines.append(endText ?? "END:" + name)
    }

    /// Every component of kind `name` inside this one, at any depth, in file order (this one excluded).
    public func descendants(named name: String) -> [ICalComponent] {
        var found: [ICalComponent] = []
        for component in components {
            if component.name == name { found.append(component) }
            if !component.components.isEmpty { found += component.descendants(named: name) }
        }
        return found
    }
}
