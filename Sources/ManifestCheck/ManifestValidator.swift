import StableHash
import SkillJSON

/// Checks a manifest document and turns it into a ``PluginManifest``.
///
/// Runs in this order: parse, the structure the manifest schema describes (required members, types,
/// semver, permission values), then what a schema cannot say: ids canonical and in the grammar, skill ids
/// prefixed with the plugin id, no duplicates, ABI major 1, every `parameters` a draft 2020-12 schema whose
/// root is an object schema (every fault, not the first), `required` names that exist, and example slots
/// that name parameters. Every problem is collected, each with its JSON pointer and skill id. This is the one
/// checker: the host's scanner and `skillhost validate` use it, and so does `SkillCheck`'s `problems` for
/// plugin authors.
public enum ManifestValidator {
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
        let report = check(document)
        guard let manifest = report.manifest else {
            throw ManifestError(file: file, problems: report.problems, advice: report.advice)
        }
        return manifest
    }

    /// Identifies the rules ``validate(_:file:)`` applies (the manifest schema and this checker): a cache may
    /// remember that a document passed under these rules, and ``readChecked(_:file:)`` trusts that only while
    /// they are the same. Bump `revision` when a check changes outside the schema text.
    public static let rulesFingerprint: String = {
        let revision = "rules-2;"  // 2: canonical ids, every schema fault, required names, example slots
        return String(FNV1a.hash64(revision + ManifestSchema.text), radix: 16)
    }()

    /// Reads a document that already passed ``validate(_:file:)`` under the current ``rulesFingerprint``
    /// (the scan cache remembers that per file version), without running the manifest schema, the id and
    /// version grammars, the duplicate check or compiling the parameter schemas again. Falls back to the
    /// full check if the typed read finds anything.
    public static func readChecked(_ document: JSONValue, file: String) throws(ManifestError) -> PluginManifest {
        var reader = ManifestReader(document: document)
        reader.checksRules = false
        if let manifest = reader.read(), reader.problems.isEmpty { return manifest }
        return try validate(document, file: file)
    }

    /// Checks a parsed manifest document and returns everything found: the manifest when it is usable, every
    /// problem (each makes the plugin invalid) and advice (accepted, but worth fixing).
    public static func check(_ document: JSONValue) -> ManifestReport {
        var reader = ManifestReader(document: document)
        let manifest = reader.read()
        if reader.problems.isEmpty {
            reader.problems += ManifestSchema.problems(in: document)
        }
        for (index, skill) in (document["skills"]?.arrayValue ?? []).enumerated() {
            guard let parameters = skill["parameters"] else { continue }
            for advice in ManifestSchema.parameterAdvice(parameters) {
                reader.advice.append(ManifestProblem(pointer: "/skills/\(index)/parameters" + advice.pointer,
                    skillID: skill["id"]?.stringValue, message: advice.message))
            }
        }
        return ManifestReport(manifest: reader.problems.isEmpty ? manifest : nil,
                              problems: reader.problems, advice: reader.advice)
    }
}

/// What ``ManifestValidator/check(_:)`` found in one manifest.
public struct ManifestReport: Sendable {
    /// The checked manifest; nil when there is any problem.
    public var manifest: PluginManifest?
    /// Faults that make the plugin invalid, in document order.
    public var problems: [ManifestProblem]
    /// What the host accepts but makes a skill harder to use well (e.g. a parameters schema that lets
    /// unknown members through).
    public var advice: [ManifestProblem]
}
