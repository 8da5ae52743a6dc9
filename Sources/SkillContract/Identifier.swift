/// The grammar of plugin and skill identifiers (docs/ids.md), shared by the SDK and the host.
///
/// A canonical id is one or more dot-separated segments of `[a-z0-9_-]`, at most ``maximumLength`` bytes.
/// A skill id is `<plugin id>.<name>`, where the name is one segment. Manifests must write ids in this
/// canonical form: the plugin receives the id exactly as its manifest wrote it. What users and models type
/// is normalized by the host first (trimmed, invisible characters dropped, NFKC, lower case), so `"Clock\n"`
/// finds `clock`.
public enum Identifier {
    /// The longest id, in UTF-8 bytes.
    public static let maximumLength = 128

    /// Whether `id` follows the grammar: non-empty, at most ``maximumLength`` bytes, segments of
    /// `[a-z0-9_-]` joined by single dots.
    public static func isValid(_ id: String) -> Bool {
        // One pass over the bytes, no string built (it runs on every call's skill id).
        var count = 0
        var afterDot = true
        for byte in id.utf8 {
            count += 1
            if byte == UInt8(ascii: ".") {
                if afterDot { return false }
                afterDot = true
            } else if isSegmentByte(byte) {
                afterDot = false
            } else {
                return false
            }
        }
        return count > 0 && count <= maximumLength && !afterDot
    }

    /// Whether one segment (no dots) is non-empty and made of `[a-z0-9_-]`.
    public static func isValidSegment<S: StringProtocol>(_ segment: S) -> Bool {
        !segment.isEmpty && segment.utf8.allSatisfy(isSegmentByte)
    }

    /// ``isValidSegment(_:)`` of a part of a string, without the generic path (it runs on calls' skill ids).
    public static func isValidSegment(_ segment: Substring) -> Bool {
        var count = 0
        for byte in segment.utf8 {
            guard isSegmentByte(byte) else { return false }
            count += 1
        }
        return count > 0
    }

    /// Why `id` breaks the grammar, as a phrase that ends with the fix ("" when it does not), e.g.
    /// `contains 'U'; ids are lower case: write "upperid.shouttext"`.
    public static func problem(with id: String) -> String {
        if isValid(id) { return "" }
        if id.isEmpty { return "is empty" }
        if id.utf8.count > maximumLength { return "is longer than \(maximumLength) bytes; shorten it" }
        if id.hasPrefix(".") || id.hasSuffix(".") || id.contains("..") {
            return "has an empty segment between dots; write segments joined by single dots"
        }
        guard let bad = id.unicodeScalars.first(where: { !($0 == "." || ($0.isASCII && isSegmentByte(UInt8($0.value)))) })
        else { return "" }
        let lowered = id.lowercased()
        if bad.properties.isUppercase, lowered.unicodeScalars.allSatisfy({ $0 == "." || ($0.isASCII && isSegmentByte(UInt8($0.value))) }) {
            return "contains '\(bad.escaped(asASCII: true))'; ids are lower case: write \"\(lowered)\""
        }
        return "contains '\(bad.escaped(asASCII: true))'; use only a-z, 0-9, '_', '-' and '.' between segments"
    }

    /// The skill's name part: what follows `<plugin id>.` in a skill id, when the id starts with it.
    public static func skillName(_ skillID: String, inPlugin pluginID: String) -> Substring? {
        guard skillID.hasPrefix(pluginID + ".") else { return nil }
        return skillID.dropFirst(pluginID.count + 1)
    }

    /// Why `skillID` is not a skill id of plugin `pluginID` ("" when it is): it must be
    /// `<plugin id>.<name>` with a one-segment name. Assumes both follow the grammar.
    public static func skillIDProblem(_ skillID: String, pluginID: String) -> String {
        guard let name = skillName(skillID, inPlugin: pluginID) else {
            return "must start with the plugin id: \"\(pluginID).<name>\""
        }
        if name.contains(".") {
            return "the name after \"\(pluginID).\" must be one segment without dots, e.g. \"\(pluginID).\(name.replacing(".", with: "_"))\""
        }
        return ""
    }

    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
    }
}
