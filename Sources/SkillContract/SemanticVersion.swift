/// Semantic versions (semver.org 2.0.0: `MAJOR.MINOR.PATCH[-pre][+build]`), as a plugin's `version`.
public enum SemanticVersion {
    /// Whether `text` is a semantic version. Numbers have no leading zeros (`"01.0.0"` is not one).
    public static func isValid(_ text: String) -> Bool {
        var core = Substring(text)
        var build: Substring?
        if let plus = core.firstIndex(of: "+") {
            build = core[core.index(after: plus)...]
            core = core[..<plus]
        }
        var prerelease: Substring?
        if let dash = core.firstIndex(of: "-") {
            prerelease = core[core.index(after: dash)...]
            core = core[..<dash]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy(isNumericIdentifier) else { return false }
        if let prerelease {
            let parts = prerelease.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.allSatisfy({ isAlphanumericIdentifier($0) && ($0.contains(where: isLetterOrDash) || isNumericIdentifier($0)) })
            else { return false }
        }
        if let build {
            guard build.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isAlphanumericIdentifier)
            else { return false }
        }
        return true
    }

    /// Orders two versions by semver precedence (semver.org §11): MAJOR, MINOR, PATCH numerically, a
    /// pre-release below its release, pre-release identifiers one by one (numbers below words, numbers
    /// numerically, a longer list above its prefix); build metadata is ignored. Nil when either is not a
    /// semantic version.
    public static func compare(_ left: String, _ right: String) -> ComparisonResult? {
        guard isValid(left), isValid(right) else { return nil }
        let a = parts(left)
        let b = parts(right)
        for (x, y) in zip(a.core, b.core) where x != y { return x < y ? .ascending : .descending }
        switch (a.prerelease.isEmpty, b.prerelease.isEmpty) {
        case (true, true): return .same
        case (true, false): return .descending
        case (false, true): return .ascending
        case (false, false): break
        }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y {
            switch (UInt64(x), UInt64(y)) {
            case let (m?, n?): return m < n ? .ascending : .descending
            case (_?, nil): return .ascending
            case (nil, _?): return .descending
            case (nil, nil): return x < y ? .ascending : .descending
            }
        }
        if a.prerelease.count == b.prerelease.count { return .same }
        return a.prerelease.count < b.prerelease.count ? .ascending : .descending
    }

    /// How two versions compare (``compare(_:_:)``).
    public enum ComparisonResult: Sendable, Equatable {
        case ascending
        case same
        case descending
    }

    /// MAJOR, MINOR, PATCH as numbers (saturating: a number past UInt64 compares as the largest) and the
    /// pre-release identifiers of a valid version.
    private static func parts(_ text: String) -> (core: [UInt64], prerelease: [Substring]) {
        var rest = Substring(text)
        if let plus = rest.firstIndex(of: "+") { rest = rest[..<plus] }
        var prerelease: [Substring] = []
        if let dash = rest.firstIndex(of: "-") {
            prerelease = rest[rest.index(after: dash)...].split(separator: ".")
            rest = rest[..<dash]
        }
        return (rest.split(separator: ".").map { UInt64($0) ?? .max }, prerelease)
    }

    private static func isNumericIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } && (part == "0" || part.first != "0")
    }

    private static func isAlphanumericIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isNumber || isLetterOrDash($0)) }
    }

    private static func isLetterOrDash(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character == "-")
    }
}
