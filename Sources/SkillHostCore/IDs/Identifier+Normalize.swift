import Foundation
import SkillContract

extension Identifier {
    /// What users and models type, made comparable with canonical ids (docs/ids.md): trims whitespace and
    /// newlines, drops invisible format characters (Unicode category Cf: ZWSP, ZWJ, BOM, bidi marks…),
    /// applies NFKC and lowercases, so `"Clock\u{200B}"`, `"clock\n"` and fullwidth `"ＣＬＯＣＫ"` all find
    /// `"clock"`. Manifests are not normalized: they must write canonical ids (``Identifier/problem(with:)``).
    public static func normalize(_ raw: String) -> String {
        if isValid(raw) { return raw }
        let visible = String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0.properties.generalCategory != .format }))
        let compatible = visible.precomposedStringWithCompatibilityMapping
        let trimmed = compatible.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.lowercased()
    }
}
