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

    /// Identifies the rules ``validate(_:file:)`` applies (the manifest schema and this host's checks): a
    /// cache may remember that a document passed under these rules, and ``readChecked(_:file:)`` trusts
    /// that only while they are the same. Bump `revision` when a check changes outside the schema text.
    public static let rulesFingerprint: String = {
        let revision = "rules-1;"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (revision + ManifestSchema.text).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }()

    /// Reads a document that already passed ``validate(_:file:)`` under the current ``rulesFingerprint``
    /// (the scan cache remembers that per file version), without running the manifest schema, the id and
    /// version grammars, the duplicate check or compiling the parameter schemas again. Falls back to the full check if the typed read finds anything.
    public static func readChecked(_ document: JSONValue, file: String) throws(ManifestError) -> PluginManifest {
        var reader = ManifestReader(document: document)
        reader.checksRules = false
        if let manifest = reader.read(), reader.problems.isEmpty { return manifest }
        return try validate(document, file: file)
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
