import Foundation

extension SlotFiller {
    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// A date written with a month name → `YYYY-MM-DD`: "december 25", "Dec 25th, 2026", "25 december",
    /// "the 1st of march". Without a year it is the next such day (today counts). Nil for anything else,
    /// including days a month does not have ("february 30").
    func monthDayDate(_ text: String) -> String? {
        let spaced = String(text.lowercased().map { $0 == "," || $0 == "." ? " " : $0 })
        let words: [String] = spaced.split(separator: " ").map(String.init).filter { !Self.dateFiller.contains($0) }
        guard (2...3).contains(words.count) else { return nil }
        var month: Int?
        var day: Int?
        var year: Int?
        for word in words {
            if month == nil, let index = Self.month(word) {
                month = index
            } else if day == nil, let number = Self.dayNumber(word), year == nil {
                day = number
            } else if year == nil, word.count == 4, let number = Int(word), day != nil || month != nil {
                year = number
            } else {
                return nil
            }
        }
        guard let month, let day else { return nil }
        let thisYear = calendar.component(.year, from: now)
        for candidate in year.map({ [$0] }) ?? [thisYear, thisYear + 1] {
            let components = DateComponents(year: candidate, month: month, day: day)
            guard let date = calendar.date(from: components),
                calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
            else { return nil }
            if year != nil || calendar.startOfDay(for: date) >= calendar.startOfDay(for: now) {
                return String(format: "%04d-%02d-%02d", candidate, month, day)
            }
        }
        return nil
    }

    static let dateFiller: Set<String> = ["the", "of", "on"]

    /// The month number (1…12) of a month name or its first three letters ("sept" too).
    static func month(_ word: String) -> Int? {
        if let index = monthNames.firstIndex(of: word) { return index + 1 }
        guard word.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) && (word.count == 3 || word == "sept") }.map { $0 + 1 }
    }

    /// A day of the month: "25", "25th", "1st", "2nd", "3rd".
    static func dayNumber(_ word: String) -> Int? {
        var digits = word
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits.removeLast(2) }
        guard digits.count <= 2, let number = Int(digits), (1...31).contains(number) else { return nil }
        return number
    }
}
