import Foundation

/// A set of plugin versions, as a policy rule's `versions` names it: comparators joined by spaces (all must
/// hold) and alternatives joined by `||`, e.g. `"<1.2.0"`, `">=1.0.0 <1.2.0"`, `"1.0.0 || >=2.0.0-0 <2.1.0"`.
/// A comparator is `<`, `<=`, `>`, `>=` or `=` (or none: equal) before a semantic version, compared by
/// semver precedence (``SemanticVersion/compare(_:_:)``).
struct VersionRange: Sendable, Equatable, CustomStringConvertible {
    enum Operator: String, Sendable, CaseIterable {
        case lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">", equal = "="
    }

    struct Comparator: Sendable, Equatable {
        var op: Operator
        var version: String
    }

    /// Alternatives, each a list of comparators that must all hold.
    let alternatives: [[Comparator]]
    /// The text it was read from.
    let description: String

    /// Reads a range.
    /// - Throws: a reason naming the part that is wrong.
    init(_ text: String) throws(PolicyFailure) {
        description = text
        var alternatives: [[Comparator]] = []
        for part in text.components(separatedBy: "||") {
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard !words.isEmpty else { throw PolicyFailure("\"\(text)\" has an empty alternative; write e.g. \">=1.0.0 <1.2.0\"") }
            var comparators: [Comparator] = []
            for word in words {
                let op = Operator.allCases.first { word.hasPrefix($0.rawValue) } ?? .equal
                let version = word.hasPrefix(op.rawValue) ? String(word.dropFirst(op.rawValue.count)) : String(word)
                guard SemanticVersion.isValid(version) else {
                    throw PolicyFailure("\"\(word)\" in \"\(text)\" is not a comparator and a semantic version; write e.g. \"<1.2.0\"")
                }
                comparators.append(Comparator(op: op, version: version))
            }
            alternatives.append(comparators)
        }
        self.alternatives = alternatives
    }

    /// Whether `version` is in the range (false for a version that is not semver).
    func contains(_ version: String) -> Bool {
        alternatives.contains { comparators in
            comparators.allSatisfy { comparator in
                guard let order = SemanticVersion.compare(version, comparator.version) else { return false }
                switch comparator.op {
                case .less: return order == .ascending
                case .lessOrEqual: return order != .descending
                case .greater: return order == .descending
                case .greaterOrEqual: return order != .ascending
                case .equal: return order == .same
                }
            }
        }
    }
}

/// Why a policy file is not usable, before the file and line are added.
struct PolicyFailure: Error, Equatable {
    var reason: String
    /// The JSON pointer of the value at fault, to find its line.
    var pointer: String

    init(_ reason: String, at pointer: String = "") {
        self.reason = reason
        self.pointer = pointer
    }
}
