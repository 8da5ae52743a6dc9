import Foundation

/// Plugin and skill identifiers: normalization and grammar (docs/ids.md).
///
/// Every id that enters the host (from a manifest, the registry, the command line or a model) goes through
/// ``normalize(_:)`` before anything else, so `"Clock\u{200B}"`, `"clock\n"` and fullwidth `"ＣＬＯＣＫ"` all
/// mean `"clock"`. After normalization an id is one or more dot-separated segments of `[a-z0-9_-]`.
public enum Identifier {
    /// Trims whitespace and newlines, drops invisible format characters (Unicode category Cf: ZWSP, ZWJ,
    /// BOM, bidi marks…), applies NFKC and lowercases.
    public static func normalize(_ raw: String) -> String {
        let visible = String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0.properties.generalCategory != .format }))
        let compatible = visible.precomposedStringWithCompatibilityMapping
        let trimmed = compatible.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.lowercased()
    }

    /// Whether a normalized id follows the grammar: segments of `[a-z0-9_-]` joined by single dots.
    public static func isValid(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128 else { return false }
        return id.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isValidSegment)
    }

    /// Whether one segment (no dots) is non-empty and made of `[a-z0-9_-]`.
    public static func isValidSegment<S: StringProtocol>(_ segment: S) -> Bool {
        !segment.isEmpty && segment.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
        }
    }

    /// Why a normalized id breaks the grammar, as a phrase ("" when it does not).
    public static func problem(with id: String) -> String {
        if id.isEmpty { return "is empty" }
        if id.utf8.count > 128 { return "is longer than 128 bytes" }
        if id.hasPrefix(".") || id.hasSuffix(".") || id.contains("..") { return "has an empty segment between dots" }
        if let bad = id.unicodeScalars.first(where: { !($0 == "." || isValidSegment(String($0))) }) {
            return "contains '\(bad.escaped(asASCII: true))'; use only a-z, 0-9, '_', '-' and '.' between segments"
        }
        return ""
    }

    /// The skill's name part: what follows `<plugin id>.` in a skill id, when the id starts with it.
    public static func skillName(_ skillID: String, inPlugin pluginID: String) -> Substring? {
        guard skillID.hasPrefix(pluginID + ".") else { return nil }
        return skillID.dropFirst(pluginID.count + 1)
    }
}
