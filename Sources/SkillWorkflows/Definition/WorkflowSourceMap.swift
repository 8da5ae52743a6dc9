/// Finds where things are in a workflow file's text, for messages: the structured readers (the YAML
/// subset, JSON) give values without positions, so a step is found by its `id` line and a key or reference
/// by its text within the step's lines. Works for YAML and JSON alike.
struct WorkflowSourceMap {
    let lines: [String]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
    }

    /// The line's text without quotes, commas, a leading `- ` and surrounding spaces (`"id": "a",` → `id: a`).
    static func normalized(_ line: String) -> String {
        var text = line.filter { $0 != "\"" && $0 != "'" && $0 != "," && $0 != "{" }
        text = text.trimmingCharacters(in: " \t")
        if text.hasPrefix("- ") { text = text.dropFirst(2).trimmingCharacters(in: " \t") }
        return text
    }

    /// The position of the key `key` on or after line `from` (1-based) and before `until`.
    func key(_ key: String, from: Int = 1, until: Int? = nil) -> SourcePosition? {
        let end = min(until ?? lines.count + 1, lines.count + 1)
        guard from < end else { return nil }
        for number in max(from, 1)..<end {
            let normalized = Self.normalized(lines[number - 1])
            if normalized == key + ":" || normalized.hasPrefix(key + ": ") || normalized.hasPrefix(key + ":\t") {
                let column = lines[number - 1].range(of: key).map { lines[number - 1].distance(from: lines[number - 1].startIndex, to: $0.lowerBound) } ?? 0
                return SourcePosition(line: number, column: column + 1)
            }
        }
        return nil
    }

    /// The first place `text` occurs on or after line `from` and before `until`.
    func text(_ text: String, from: Int = 1, until: Int? = nil) -> SourcePosition? {
        let end = min(until ?? lines.count + 1, lines.count + 1)
        guard from < end else { return nil }
        for number in max(from, 1)..<end {
            let line = lines[number - 1]
            if let range = line.range(of: text) {
                return SourcePosition(line: number, column: line.unicodeScalars.distance(
                    from: line.unicodeScalars.startIndex, to: range.lowerBound.samePosition(in: line.unicodeScalars) ?? line.unicodeScalars.startIndex) + 1)
            }
        }
        return nil
    }

    /// The lines of each step, by its id: its `id:` line up to the next step's.
    func stepLines(_ ids: [String]) -> [String: (start: Int, end: Int)] {
        var starts: [(String, Int)] = []
        var from = 1
        for id in ids {
            guard let found = (from...max(from, lines.count)).first(where: { number in
                number <= lines.count && Self.normalized(lines[number - 1]) == "id: \(id)"
            }) else { continue }
            starts.append((id, found))
            from = found + 1
        }
        var result: [String: (Int, Int)] = [:]
        for (index, (id, start)) in starts.enumerated() {
            result[id] = (start, index + 1 < starts.count ? starts[index + 1].1 : lines.count + 1)
        }
        return result
    }
}
