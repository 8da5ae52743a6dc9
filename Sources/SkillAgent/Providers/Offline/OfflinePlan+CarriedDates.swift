import Foundation
import SkillJSON

extension OfflinePlan {
    /// The plan with a later step's bare time of day put on the day an earlier step named: in "check
    /// tomorrow morning for a free slot, then add a 10:00 workout reminder" the slot filler reads "10:00"
    /// as today at 10:00, but the user means tomorrow. A date-time argument dated `today` whose clause says
    /// nothing about today is moved to the day of the closest earlier step that named another day.
    func carryingDates(today: String) -> OfflinePlan {
        var plan = self
        var namedDay: String?
        for index in plan.steps.indices {
            let step = plan.steps[index]
            guard var arguments = step.arguments.objectValue else { continue }
            let saysToday = Self.todayWords.contains { step.clause.lowercased().contains($0) }
            var changed = false
            for name in arguments.keys {
                guard let value = arguments[name]?.stringValue, let day = Self.day(of: value) else { continue }
                if day == today, !saysToday, value.count > 10, let carried = namedDay, carried != today {
                    arguments[name] = .string(carried + value.dropFirst(10))
                    changed = true
                } else if day != today {
                    namedDay = day
                }
            }
            if changed { plan.steps[index].arguments = .object(arguments) }
        }
        return plan
    }

    /// Words that put a time on today.
    static let todayWords = ["today", "tonight", "this morning", "this afternoon", "this evening", "now"]

    /// The `YYYY-MM-DD` a date or date-time value starts with.
    static func day(of value: String) -> String? {
        let bytes = Array(value.utf8.prefix(10))
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }),
            value.count == 10 || value.dropFirst(10).first == "T"
        else { return nil }
        return String(value.prefix(10))
    }
}
