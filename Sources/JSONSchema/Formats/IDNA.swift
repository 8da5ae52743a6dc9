/// IDNA2008 label rules (RFC 5891–5893) for `idn-hostname`, and for `xn--` labels in `hostname`.
///
/// The toolchain has no IDNA tables, so the code point classes are derived from general categories
/// (letters, marks and digits are PVALID) plus RFC 5892's exception list; the contextual rules
/// (middle dot, Greek keraia, Hebrew geresh, katakana middle dot, Arabic-Indic digits, ZWJ/ZWNJ) and
/// the Bidi rule are implemented with block ranges where a property is missing.
enum IDNA {
    private static let separators: Set<Character> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// An internationalized host name: labels split on the four IDNA dots, each a valid A- or U-label,
    /// at most 253 octets in ASCII form.
    static func isHostname(_ text: String) -> Bool {
        let labels = text.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        var asciiLength = labels.count - 1
        var unicodeLabels: [String] = []
        for label in labels {
            guard !label.isEmpty else { return false }
            let lower = label.lowercased()
            var unicode = String(label)
            if lower.hasPrefix("xn--") {
                guard let decoded = decodeALabel(String(lower.dropFirst(4))) else { return false }
                unicode = decoded
                asciiLength += label.utf8.count
            } else if label.unicodeScalars.allSatisfy(\.isASCII) {
                asciiLength += label.utf8.count
            } else {
                asciiLength += 4 + Punycode.encode(unicode).utf8.count
            }
            guard isValidULabel(unicode) else { return false }
            let encodedLength = unicode.unicodeScalars.allSatisfy(\.isASCII) ? unicode.utf8.count : 4 + Punycode.encode(unicode).utf8.count
            guard encodedLength <= 63 else { return false }
            unicodeLabels.append(unicode)
        }
        guard asciiLength <= 253 else { return false }
        if unicodeLabels.contains(where: { $0.unicodeScalars.contains(where: isRightToLeft) }) {
            return unicodeLabels.allSatisfy(satisfiesBidiRule)
        }
        return true
    }

    /// The U-label of an A-label body (after `xn--`): valid Punycode, not all ASCII, canonical.
    static func decodeALabel(_ body: String) -> String? {
        guard let decoded = Punycode.decode(body), !decoded.unicodeScalars.allSatisfy(\.isASCII),
            Punycode.encode(decoded) == body
        else { return nil }
        return decoded
    }

    /// RFC 5891 section 5.4 and RFC 5892 for one label.
    static func isValidULabel(_ label: String) -> Bool {
        let scalars = Array(label.unicodeScalars)
        guard let first = scalars.first, first != "-", scalars.last != "-" else { return false }
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" { return false }
        if isMark(first) { return false }
        let hasArabicIndic = scalars.contains { (0x660...0x669).contains($0.value) }
        let hasExtendedArabicIndic = scalars.contains { (0x6F0...0x6F9).contains($0.value) }
        if hasArabicIndic && hasExtendedArabicIndic { return false }
        for (index, scalar) in scalars.enumerated() {
            let before = index > 0 ? scalars[index - 1] : nil
            let after = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar.value {
            case 0xB7: guard before == "l", after == "l" else { return false }
            case 0x375: guard let after, isGreek(after) else { return false }
            case 0x5F3, 0x5F4: guard let before, isHebrew(before) else { return false }
            case 0x30FB:
                guard scalars.contains(where: { $0.value != 0x30FB && isJapaneseOrHan($0) }) else { return false }
            case 0x200D: guard before?.properties.canonicalCombiningClass == .virama else { return false }
            case 0x200C:
                if before?.properties.canonicalCombiningClass == .virama { continue }
                guard joinsAroundNonJoiner(scalars, at: index) else { return false }
            default:
                guard isPermitted(scalar) else { return false }
            }
        }
        return true
    }

    private static let exceptionsAllowed: Set<UInt32> = [0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007, 0x660, 0x661, 0x662,
        0x663, 0x664, 0x665, 0x666, 0x667, 0x668, 0x669, 0x6F0, 0x6F1, 0x6F2, 0x6F3, 0x6F4, 0x6F5, 0x6F6, 0x6F7, 0x6F8, 0x6F9]
    private static let exceptionsDisallowed: Set<UInt32> = [0x640, 0x7FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034,
        0x3035, 0x303B]

    /// PVALID approximated: ASCII letters, digits and '-', and lowercase/other letters, marks and digits.
    private static func isPermitted(_ scalar: Unicode.Scalar) -> Bool {
        if exceptionsAllowed.contains(scalar.value) { return true }
        if exceptionsDisallowed.contains(scalar.value) { return false }
        if scalar.isASCII { return NetworkFormats.isLetterOrDigit(UInt8(scalar.value)) || scalar == "-" }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber:
            return !scalar.properties.changesWhenCaseFolded
        default: return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
        (0x370...0x3FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
    }

    private static func isHebrew(_ scalar: Unicode.Scalar) -> Bool { (0x591...0x5F4).contains(scalar.value) }

    private static func isJapaneseOrHan(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
            || scalar.properties.isIdeographic
    }

    /// Joining letters (types L or D), approximated by the Arabic, Syriac, NKo and Mongolian letters.
    private static func isJoiningLetter(_ scalar: Unicode.Scalar) -> Bool {
        let arabicLike = (0x620...0x6FF).contains(scalar.value) || (0x700...0x7FF).contains(scalar.value)
            || (0x1800...0x18AF).contains(scalar.value)
        return arabicLike && scalar.properties.generalCategory == .otherLetter
    }

    /// RFC 5892 appendix A.1's regular expression around a ZWNJ: (L|D) T* ZWNJ T* (R|D).
    private static func joinsAroundNonJoiner(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var before = index - 1
        while before >= 0, scalars[before].properties.generalCategory == .nonspacingMark { before -= 1 }
        var after = index + 1
        while after < scalars.count, scalars[after].properties.generalCategory == .nonspacingMark { after += 1 }
        return before >= 0 && after < scalars.count && isJoiningLetter(scalars[before]) && isJoiningLetter(scalars[after])
    }

    // MARK: Bidi (RFC 5893), with bidi classes approximated by blocks.

    private enum BidiClass { case left, right, arabicLetter, arabicNumber, europeanNumber, nonspacingMark, other }

    private static func bidiClass(_ scalar: Unicode.Scalar) -> BidiClass {
        let value = scalar.value
        if (0x30...0x39).contains(value) || (0x6F0...0x6F9).contains(value) { return .europeanNumber }
        if (0x660...0x669).contains(value) || value == 0x66B || value == 0x66C { return .arabicNumber }
        if scalar.properties.generalCategory == .nonspacingMark { return .nonspacingMark }
        if (0x590...0x5FF).contains(value) || (0x7C0...0x85F).contains(value) || (0xFB1D...0xFB4F).contains(value) {
            return .right
        }
        if (0x600...0x6FF).contains(value) || (0x700...0x7BF).contains(value) || (0x8A0...0x8FF).contains(value)
            || (0xFB50...0xFDFF).contains(value) || (0xFE70...0xFEFF).contains(value)
        {
            return .arabicLetter
        }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter, .spacingMark: return .left
        default: return .other
        }
    }

    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch bidiClass(scalar) {
        case .right, .arabicLetter, .arabicNumber: return true
        default: return false
        }
    }

    private static func satisfiesBidiRule(_ label: String) -> Bool {
        let classes = label.unicodeScalars.map(bidiClass)
        guard let first = classes.first else { return false }
        let trimmed = classes.reversed().drop { $0 == .nonspacingMark }
        guard let last = trimmed.first else { return false }
        switch first {
        case .right, .arabicLetter:
            if classes.contains(.left) { return false }
            if classes.contains(.europeanNumber) && classes.contains(.arabicNumber) { return false }
            return [.right, .arabicLetter, .europeanNumber, .arabicNumber].contains(last)
        case .left:
            if classes.contains(where: { $0 == .right || $0 == .arabicLetter || $0 == .arabicNumber }) { return false }
            return last == .left || last == .europeanNumber
        default:
            return false
        }
    }
}
