import SkillJSON

/// A parameter that takes a date or a time, as the planner writes values for it: which shapes its schema
/// accepts and how it relates to a span (``DateRole``, from its name).
struct DateParameter: Sendable {
    /// What the schema accepts.
    enum Shape: Sendable, Equatable {
        /// `YYYY-MM-DD` only (`format: date`, or a pattern no time fits).
        case date
        /// A date-time only (`format: date-time`).
        case dateTime
        /// A date or a date-time (a date-shaped `pattern` that a time also fits).
        case either
        /// A time of day only (`format: time`).
        case time
    }

    var name: String
    var schema: JSONValue?
    var shape: Shape
    var role: DateRole
    var required: Bool

    /// The date parameters of a tool, required ones first, then by name.
    static func all(of spec: ToolSpec) -> [DateParameter] {
        SkillVocabulary.of(spec).dateParameters
    }

    /// The date parameters of a tool read from its schema (``all(of:)`` keeps them with the tool's vocabulary).
    static func reading(_ spec: ToolSpec) -> [DateParameter] {
        let properties = spec.tool.parameters["properties"]?.objectValue ?? [:]
        let required = spec.tool.parameters["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return properties.keys.sorted().compactMap { name -> DateParameter? in
            let schema = properties[name]
            guard SkillVocabulary.kind(of: name, schema: schema) == .date, let shape = Self.shape(of: schema) else { return nil }
            return DateParameter(name: name, schema: schema, shape: shape, role: DateRole(parameter: name), required: required.contains(name))
        }.sorted { ($0.required ? 0 : 1, $0.name) < ($1.required ? 0 : 1, $1.name) }
    }

    /// The shape of a date schema; nil when no date or time fits it.
    static func shape(of schema: JSONValue?) -> Shape? {
        switch schema?["format"]?.stringValue {
        case "date": return .date
        case "date-time": return .dateTime
        case "time": return .time
        default: break
        }
        guard let pattern = schema?["pattern"]?.stringValue else { return nil }
        let date = SlotFiller.matches("2026-01-31", pattern: pattern)
        let dateTime = SlotFiller.matches("2026-01-31T09:30:00+01:00", pattern: pattern)
        switch (date, dateTime) {
        case (true, true): return .either
        case (true, false): return .date
        case (false, true): return .dateTime
        case (false, false): return SlotFiller.matches("09:30:00+01:00", pattern: pattern) ? .time : nil
        }
    }

    /// Whether `text` fits the schema's pattern (no pattern: yes).
    func accepts(_ text: String) -> Bool {
        guard let pattern = schema?["pattern"]?.stringValue else { return true }
        return SlotFiller.matches(text, pattern: pattern)
    }
}
