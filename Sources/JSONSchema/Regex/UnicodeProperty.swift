/// A Unicode property usable in `\p{…}`: a general category (`L`, `Letter`, `gc=Lu`), a binary property
/// (`Alphabetic`, `White_Space`, `Emoji`, `ASCII`, `Any`, …) or one of the common scripts (`Script=Latin`,
/// `sc=Greek`; scripts are approximated by their main blocks because the toolchain has no script data).
enum UnicodeProperty: Sendable {
    case categories(Set<Unicode.GeneralCategory>)
    case binary(@Sendable (Unicode.Scalar.Properties) -> Bool)
    case ranges([ClosedRange<UInt32>])

    /// Whether `scalar` has the property.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .categories(let set): return set.contains(scalar.properties.generalCategory)
        case .binary(let test): return test(scalar.properties)
        case .ranges(let ranges): return ranges.contains { $0.contains(scalar.value) }
        }
    }

    /// The property named by the text between the braces of `\p{…}`, or nil when unknown.
    init?(name: String) {
        let parts = name.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            switch parts[0] {
            case "General_Category", "gc":
                guard let set = Self.categoryNames[parts[1]] else { return nil }
                self = .categories(set)
            case "Script", "sc", "Script_Extensions", "scx":
                guard let ranges = Self.scripts[parts[1]] else { return nil }
                self = .ranges(ranges)
            default: return nil
            }
            return
        }
        if let set = Self.categoryNames[name] {
            self = .categories(set)
        } else if let test = Self.binaryProperties[name] {
            self = .binary(test)
        } else {
            return nil
        }
    }

    private static let categoryNames: [String: Set<Unicode.GeneralCategory>] = {
        let groups: [([String], [Unicode.GeneralCategory])] = [
            (["L", "Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            (["LC", "Cased_Letter"], [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            (["Lu", "Uppercase_Letter"], [.uppercaseLetter]), (["Ll", "Lowercase_Letter"], [.lowercaseLetter]),
            (["Lt", "Titlecase_Letter"], [.titlecaseLetter]), (["Lm", "Modifier_Letter"], [.modifierLetter]),
            (["Lo", "Other_Letter"], [.otherLetter]),
            (["M", "Mark", "Combining_Mark"], [.nonspacingMark, .spacingMark, .enclosingMark]),
            (["Mn", "Nonspacing_Mark"], [.nonspacingMark]), (["Mc", "Spacing_Mark"], [.spacingMark]),
            (["Me", "Enclosing_Mark"], [.enclosingMark]),
            (["N", "Number"], [.decimalNumber, .letterNumber, .otherNumber]),
            (["Nd", "Decimal_Number", "digit"], [.decimalNumber]), (["Nl", "Letter_Number"], [.letterNumber]),
            (["No", "Other_Number"], [.otherNumber]),
            (["P", "Punctuation", "punct"], [.connectorPunctuation, .dashPunctuation, .openPunctuation,
                .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation]),
            (["Pc", "Connector_Punctuation"], [.connectorPunctuation]), (["Pd", "Dash_Punctuation"], [.dashPunctuation]),
            (["Ps", "Open_Punctuation"], [.openPunctuation]), (["Pe", "Close_Punctuation"], [.closePunctuation]),
            (["Pi", "Initial_Punctuation"], [.initialPunctuation]), (["Pf", "Final_Punctuation"], [.finalPunctuation]),
            (["Po", "Other_Punctuation"], [.otherPunctuation]),
            (["S", "Symbol"], [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            (["Sm", "Math_Symbol"], [.mathSymbol]), (["Sc", "Currency_Symbol"], [.currencySymbol]),
            (["Sk", "Modifier_Symbol"], [.modifierSymbol]), (["So", "Other_Symbol"], [.otherSymbol]),
            (["Z", "Separator"], [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            (["Zs", "Space_Separator"], [.spaceSeparator]), (["Zl", "Line_Separator"], [.lineSeparator]),
            (["Zp", "Paragraph_Separator"], [.paragraphSeparator]),
            (["C", "Other"], [.control, .format, .surrogate, .privateUse, .unassigned]),
            (["Cc", "Control", "cntrl"], [.control]), (["Cf", "Format"], [.format]), (["Cs", "Surrogate"], [.surrogate]),
            (["Co", "Private_Use"], [.privateUse]), (["Cn", "Unassigned"], [.unassigned]),
        ]
        var table: [String: Set<Unicode.GeneralCategory>] = [:]
        for (names, categories) in groups { for name in names { table[name] = Set(categories) } }
        return table
    }()

    private static let binaryProperties: [String: @Sendable (Unicode.Scalar.Properties) -> Bool] = [
        "Alphabetic": { $0.isAlphabetic }, "Alpha": { $0.isAlphabetic },
        "White_Space": { $0.isWhitespace }, "space": { $0.isWhitespace },
        "Uppercase": { $0.isUppercase }, "Upper": { $0.isUppercase },
        "Lowercase": { $0.isLowercase }, "Lower": { $0.isLowercase },
        "Any": { _ in true }, "Assigned": { $0.generalCategory != .unassigned },
        "Emoji": { $0.isEmoji }, "Emoji_Presentation": { $0.isEmojiPresentation },
        "Ideographic": { $0.isIdeographic }, "Ideo": { $0.isIdeographic },
        "Hex_Digit": { $0.isHexDigit }, "ASCII_Hex_Digit": { $0.isASCIIHexDigit }, "Math": { $0.isMath },
        "Dash": { $0.isDash }, "Diacritic": { $0.isDiacritic }, "Extender": { $0.isExtender },
        "ID_Start": { $0.isIDStart }, "ID_Continue": { $0.isIDContinue },
        "XID_Start": { $0.isXIDStart }, "XID_Continue": { $0.isXIDContinue },
        "Noncharacter_Code_Point": { $0.isNoncharacterCodePoint },
        "Cased": { $0.isCased }, "Quotation_Mark": { $0.isQuotationMark },
    ]

    private static let scripts: [String: [ClosedRange<UInt32>]] = {
        let table: [([String], [ClosedRange<UInt32>])] = [
            (["Latin", "Latn"], [0x41...0x5A, 0x61...0x7A, 0xAA...0xAA, 0xBA...0xBA, 0xC0...0xD6, 0xD8...0xF6,
                0xF8...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF21...0xFF3A, 0xFF41...0xFF5A]),
            (["Greek", "Grek"], [0x370...0x3FF, 0x1F00...0x1FFF]),
            (["Cyrillic", "Cyrl"], [0x400...0x52F, 0x2DE0...0x2DFF, 0xA640...0xA69F, 0x1C80...0x1C8F]),
            (["Armenian", "Armn"], [0x531...0x58F]), (["Hebrew", "Hebr"], [0x591...0x5FF, 0xFB1D...0xFB4F]),
            (["Arabic", "Arab"], [0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF]),
            (["Devanagari", "Deva"], [0x900...0x97F]), (["Bengali", "Beng"], [0x980...0x9FF]),
            (["Thai"], [0xE00...0xE7F]), (["Georgian", "Geor"], [0x10A0...0x10FF]),
            (["Hangul", "Hang"], [0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF]),
            (["Hiragana", "Hira"], [0x3041...0x309F]), (["Katakana", "Kana"], [0x30A0...0x30FF, 0x31F0...0x31FF]),
            (["Han", "Hani"], [0x2E80...0x2FDF, 0x3005...0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xF900...0xFAFF, 0x20000...0x3134F]),
        ]
        var result: [String: [ClosedRange<UInt32>]] = [:]
        for (names, ranges) in table { for name in names { result[name] = ranges } }
        return result
    }()
}
