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
