import SkillJSON

/// Checks a manifest document and turns it into a ``PluginManifest``.
///
/// Runs in this order: parse, the structure the manifest schema describes (required members, types,
/// semver, permission values), then what a schema cannot say: ids normalized and in the grammar, skill ids
/// prefixed with the plugin id, no duplicates after normalization, ABI major 1, and every `parameters`
/// compiling as a draft 2020-12 schema whose root is an object schema. Every problem is collected, each with
/// its JSON pointer and skill id.
public enum ManifestValidator {
    /// The ABI major the host implements.
    public static let supportedABIMajor = 1

    /// Parses and checks manifest bytes that `file` returned.
    /// - Throws: ``ManifestError`` listing every problem.
    public static func validate(bytes: [UInt8], file: String) throws(ManifestError) -> PluginManifest {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw ManifestError(file: file, problems: [
                ManifestProblem(pointer: "", message: "is not valid JSON (\(error.description)); fix the plugin's manifest text"),
            ])
        }
        return try validate(document, file: file)
    }

    /// Checks a parsed manifest document.
    /// - Throws: ``ManifestError`` listing every problem.
    public static func validate(_ document: JSONValue, file: String) throws(ManifestError) -> PluginManifest {
        var reader = ManifestReader(document: document)
        let manifest = reader.read()
        if reader.problems.isEmpty {
            reader.problems += ManifestSchema.problems(in: document)
        }
        guard let manifest, reader.problems.isEmpty else {
            throw ManifestError(file: file, problems: reader.problems)
        }
        return manifest
    }

    /// Whether `text` is a semantic version (semver.org 2.0.0: `MAJOR.MINOR.PATCH[-pre][+build]`).
    public static func isSemanticVersion(_ text: String) -> Bool {
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
            guard parts.allSatisfy({ isAlphanumericIdentifier($0) && ($0.contains(where: \.isLetterOrDash) || isNumericIdentifier($0)) })
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
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLetterOrDash) }
    }
}

extension Character {
    fileprivate var isLetterOrDash: Bool { isASCII && (isLetter || self == "-") }
}
