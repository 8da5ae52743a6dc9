import SkillJSON

/// Puts the dates and times a request names into a tool's date parameters, or says why one cannot go in.
///
/// A value goes where the word before it points ("from" → a start, "until" → an end, "before"/"by" → a
/// limit such as `due_before`), else into the first free parameter that takes it: required ones first, then
/// a moment (`due`, `date`), a start, a limit, an end. A span ("this week", "tomorrow morning", "from 10 to
/// 11") fills a start and an end (`from`/`to`, `start`/`end`) where the tool has both, its last day a limit,
/// and a part of the day a choice parameter that names it (`part_of_day`). Times are written in the user's
/// zone with the offset it has on that day. What cannot be placed as said is a ``Problem``: a question
/// back, never a guess.
struct TemporalPlacement: Sendable {
    let calendar: TemporalCalendar
    /// The day a time said without one is on: the day an earlier step of the request named, else today.
    let contextDay: LocalDay?

    /// Why a mention could not be placed.
    struct Problem: Error, Sendable, Equatable {
        var parameter: String
        var text: String
        var why: OfflinePlan.DateQuestion
    }

    /// Places a mention a template slot took into that slot's parameter (and its partner, for a span).
    func place(_ mention: TemporalMention, into parameter: DateParameter, spec: ToolSpec, arguments: inout JSONObject) -> Problem? {
        let writes = spec.tool.permission != .read
        if case .part(let day, let part) = mention.value, let choice = partChoice(spec, arguments, part) {
            arguments[choice.name] = choice.value
            guard let day else { return nil }
            return write(.day(day), mention, into: parameter, writes: writes, arguments: &arguments)
        }
        let value: TemporalValue
        switch resolved(mention, writes: writes) {
        case .success(let resolved): value = resolved
        case .failure(let problem): return problem
        }
        if Self.isSpan(value), let (start, end) = pair(spec, arguments, containing: parameter.name),
            let written = spanText(value, start, end)
        {
            arguments[start.name] = .string(written.0)
            arguments[end.name] = .string(written.1)
            return nil
        }
        return write(value, mention, into: parameter, writes: writes, arguments: &arguments)
    }

    /// Places the mentions no slot took; nil when every one found its parameter.
    func placeRemaining(_ mentions: [TemporalMention], spec: ToolSpec, arguments: inout JSONObject) -> Problem? {
        let writes = spec.tool.permission != .read
        let mentions = Self.joiningDayAndTime(mentions)
        for (index, mention) in mentions.enumerated() {
            var open = DateParameter.all(of: spec).filter { arguments[$0.name] == nil }
            if case .part(let day, let part) = mention.value, let choice = partChoice(spec, arguments, part) {
                arguments[choice.name] = choice.value
                guard let day else { continue }
                guard let target = open.first(where: { single(.day(day), for: $0) != nil && $0.role != .end }) else {
                    return Problem(parameter: "", text: mention.text, why: .noParameter)
                }
                arguments[target.name] = single(.day(day), for: target).map { .string($0) }
                continue
            }
            let value: TemporalValue
            switch resolved(mention, writes: writes) {
            case .success(let resolved): value = resolved
            case .failure(let problem): return problem
            }
            if Self.isSpan(value) {
                if let (start, end) = pair(spec, arguments, containing: nil), let written = spanText(value, start, end) {
                    arguments[start.name] = .string(written.0)
                    arguments[end.name] = .string(written.1)
                    continue
                }
                if case .days(_, let last) = value, let limit = open.first(where: { $0.role == .before }),
                    let text = single(.day(last), for: limit)
                {
                    arguments[limit.name] = .string(text)
                    continue
                }
                let point = open.first { $0.shape != .date }
                return Problem(parameter: point?.name ?? "", text: mention.text, why: point == nil ? .noParameter : .needsTime)
            }
            open = open.filter { single(value, for: $0) != nil }
            guard !open.isEmpty else {
                // "today" adds nothing to a skill without a date ("what's the date today").
                if value == .day(calendar.today) { continue }
                let needsTime = DateParameter.all(of: spec).contains { $0.shape == .dateTime && arguments[$0.name] == nil }
                return Problem(parameter: "", text: mention.text, why: needsTime ? .needsTime : .noParameter)
            }
            let remaining = mentions.count - index
            let required = open.filter(\.required)
            let target: DateParameter
            if !required.isEmpty, remaining <= required.count {
                target = required[0]
            } else if let role = mention.role, let matching = open.first(where: { $0.role == role }) {
                target = matching
            } else {
                let order: [DateRole] = [.point, .start, .before, .end]
                target = open.min { (order.firstIndex(of: $0.role) ?? 4, $0.required ? 0 : 1) < (order.firstIndex(of: $1.role) ?? 4, $1.required ? 0 : 1) }!
            }
            if let problem = write(value, mention, into: target, writes: writes, arguments: &arguments) { return problem }
        }
        return nil
    }

    // MARK: - Values

    /// The value with the day a bare time is on filled in; a time already past today is a problem for a
    /// skill that changes something (a reminder at 9 when it is 17:00).
    func resolved(_ mention: TemporalMention, writes: Bool) -> Result<TemporalValue, Problem> {
        let day = contextDay ?? calendar.today
        var value = mention.value
        switch value {
        case .time(let time): value = .instant(day, time)
        case .times(nil, let start, let end): value = .times(day, start, end)
        case .part(nil, let part): value = .part(day, part)
        default: break
        }
        if writes, mention.offsetUnit == nil {
            switch value {
            case .instant(let day, let time) where calendar.isPast(day, time),
                .times(let day?, let time, _) where calendar.isPast(day, time):
                return .failure(Problem(parameter: "", text: mention.text, why: .past(time: String(time.text.prefix(5)))))
            default:
                break
            }
        }
        return .success(value)
    }

    /// Writes one value into `parameter`.
    func write(
        _ value: TemporalValue, _ mention: TemporalMention, into parameter: DateParameter, writes: Bool, arguments: inout JSONObject
    ) -> Problem? {
        guard let text = single(value, for: parameter) else {
            let why: OfflinePlan.DateQuestion = parameter.shape == .dateTime || Self.isSpan(value) ? .needsTime : .unreadable
            return Problem(parameter: parameter.name, text: mention.text, why: why)
        }
        arguments[parameter.name] = .string(text)
        return nil
    }

    /// Whether a value spans time rather than being one day or moment.
    static func isSpan(_ value: TemporalValue) -> Bool {
        switch value {
        case .days(let first, let last): first != last
        case .part, .times: true
        default: false
        }
    }

    /// The text of a single value for a parameter, or nil when its shape cannot hold it.
    func single(_ value: TemporalValue, for parameter: DateParameter) -> String? {
        let text: String?
        switch (value, parameter.shape) {
        case (.day(let day), .date), (.day(let day), .either):
            text = day.text
        case (.day(let day), .dateTime) where parameter.role == .start || parameter.role == .before:
            text = calendar.dateTime(day, ClockTime(hour: 0, minute: 0, settled: true))
        case (.instant(let day, _), .date):
            text = day.text
        case (.instant(let day, let time), .either), (.instant(let day, let time), .dateTime):
            text = calendar.dateTime(day, time)
        case (.instant(let day, let time), .time):
            text = time.text + calendar.offset(of: day, at: time)
        case (.literal(let literal), .either), (.literal(let literal), .dateTime):
            text = literal
        case (.literal(let literal), .date):
            text = String(literal.prefix(10))
        case (.days(let first, let last), .date), (.days(let first, let last), .either):
            switch parameter.role {
            case .start: text = first.text
            case .end, .before: text = last.text
            case .point: text = first == last ? first.text : nil
            }
        default:
            text = nil
        }
        return text.flatMap { parameter.accepts($0) ? $0 : nil }
    }

    /// A start and an end parameter that are both free (one of them `name` when given).
    func pair(_ spec: ToolSpec, _ arguments: JSONObject, containing name: String?) -> (DateParameter, DateParameter)? {
        let parameters = DateParameter.all(of: spec).filter { ($0.name == name || arguments[$0.name] == nil) && $0.shape != .time }
        guard let start = parameters.first(where: { $0.role == .start }), let end = parameters.first(where: { $0.role == .end }),
            name == nil || start.name == name || end.name == name
        else { return nil }
        return (start, end)
    }

    /// A span as the texts of a start and an end parameter.
    func spanText(_ value: TemporalValue, _ start: DateParameter, _ end: DateParameter) -> (String, String)? {
        let midnight = ClockTime(hour: 0, minute: 0, settled: true)
        func moment(_ day: LocalDay, _ time: ClockTime, _ parameter: DateParameter) -> String? {
            parameter.shape == .date ? nil : calendar.dateTime(day, time)
        }
        var texts: (String?, String?)
        switch value {
        case .days(let first, let last):
            texts.0 = start.shape == .dateTime ? calendar.dateTime(first, midnight) : first.text
            texts.1 = end.shape == .dateTime ? calendar.dateTime(calendar.adding(1, to: last), midnight) : last.text
        case .part(let day?, let part):
            let hours = part.hours
            texts.0 = moment(day, ClockTime(hour: hours.start, minute: 0, settled: true), start)
            texts.1 =
                hours.end == 24
                ? moment(calendar.adding(1, to: day), midnight, end) : moment(day, ClockTime(hour: hours.end, minute: 0, settled: true), end)
        case .times(let day?, let first, let last):
            texts.0 = moment(day, first, start)
            texts.1 = moment(last.minutes > first.minutes ? day : calendar.adding(1, to: day), last, end)
        default:
            return nil
        }
        guard let first = texts.0, let last = texts.1, start.accepts(first), end.accepts(last) else { return nil }
        return (first, last)
    }

    /// A free choice parameter with a value named like the part of the day (`part_of_day`: "morning").
    func partChoice(_ spec: ToolSpec, _ arguments: JSONObject, _ part: PartOfDay) -> (name: String, value: JSONValue)? {
        let properties = spec.tool.parameters["properties"]?.objectValue ?? [:]
        for name in properties.keys.sorted() where arguments[name] == nil {
            if let value = ChoiceNames(properties[name])?.value(named: part.rawValue) { return (name, value) }
        }
        return nil
    }

    /// One day and one time said apart ("tomorrow … at 9") as one moment.
    static func joiningDayAndTime(_ mentions: [TemporalMention]) -> [TemporalMention] {
        let days = mentions.indices.filter { if case .day = mentions[$0].value { true } else { false } }
        let times = mentions.indices.filter { index in
            switch mentions[index].value {
            case .time, .times(nil, _, _), .part(nil, _): true
            default: false
            }
        }
        guard days.count == 1, times.count == 1, case .day(let day) = mentions[days[0]].value else { return mentions }
        var joined = mentions[times[0]]
        switch joined.value {
        case .time(let time): joined.value = .instant(day, time)
        case .times(_, let start, let end): joined.value = .times(day, start, end)
        case .part(_, let part): joined.value = .part(day, part)
        default: return mentions
        }
        joined.text = mentions[days[0]].text + " " + joined.text
        var result = mentions
        result[times[0]] = joined
        result.remove(at: days[0])
        return result
    }
}
