import Foundation

/// A publisher's key in minisign's format (what `minisign -G` and `skillhost keys generate` write):
///
/// ```
/// untrusted comment: minisign public key 6B5B1E26E20DA92E
/// RWQuqQ3iJh5ba5+8UNGvrsvPWa3cbez9042/3Da1udEehAOnK9NIU6dl
/// ```
///
/// The second line is base64 of `"Ed"`, an 8-byte key number and the 32-byte Ed25519 public key. The key id
/// is the key number as minisign prints it: a little-endian 64-bit number in 16 upper-case hex digits.
public struct MinisignPublicKey: Sendable, Equatable, Hashable {
    /// The 8-byte key number that signatures name.
    public var keyNumber: [UInt8]
    /// The Ed25519 public key.
    public var key: [UInt8]
    /// The file's first line after "untrusted comment: " (not signed: a hint only), when it had one.
    public var comment: String?

    /// A key from its parts.
    init(keyNumber: [UInt8], key: [UInt8], comment: String? = nil) {
        self.keyNumber = keyNumber
        self.key = key
        self.comment = comment
    }

    /// Reads a public key file's text, or the bare base64 line (`minisign -P` takes that form).
    /// - Parameter source: names the file (or option) in messages.
    /// - Throws: ``HostError`` `invalidArguments` saying what is wrong with it.
    public init(parsing text: String, source: String) throws(HostError) {
        if text.contains("\u{0}") || text.contains("\u{FFFD}") {
            throw Self.invalid(source, "it is not text (a binary file?)")
        }
        let lines = MinisignText.lines(text)
        var comment: String?
        var encoded: String
        switch lines.count {
        case 1: encoded = lines[0]
        case 2:
            guard let untrusted = MinisignText.value(of: lines[0], prefix: "untrusted comment: ") else {
                throw Self.invalid(source, "its first line does not start with \"untrusted comment: \"")
            }
            comment = untrusted
            encoded = lines[1]
        default:
            throw Self.invalid(source, "it has \(lines.count) lines, a public key has 2 (a comment and the key)")
        }
        encoded = encoded.trimmingCharacters(in: .whitespaces)
        guard let bytes = MinisignText.base64(encoded), bytes.count == 42 else {
            throw Self.invalid(source, "the key line is not base64 of 42 bytes")
        }
        guard bytes[0] == 0x45, bytes[1] == 0x64 else {  // "Ed"
            throw Self.invalid(source, "the key is not an Ed25519 minisign key (it starts with \(MinisignText.hex(Array(bytes[0..<2]))))")
        }
        self.init(keyNumber: Array(bytes[2..<10]), key: Array(bytes[10..<42]), comment: comment)
    }

    private static func invalid(_ source: String, _ reason: String) -> HostError {
        HostError(.invalidArguments, "\(source) is not a minisign public key: \(reason); give the .pub file that 'minisign -G' or 'skillhost keys generate' wrote")
    }

    /// The key id, e.g. `6B5B1E26E20DA92E`.
    public var id: String { MinisignText.keyID(keyNumber) }

    /// The key line: base64 of `"Ed"`, key number and key.
    public var base64: String { Data([0x45, 0x64] + keyNumber + key).base64EncodedString() }

    /// The file as minisign writes it.
    public var fileText: String { "untrusted comment: minisign public key \(id)\n\(base64)\n" }
}

/// What minisign's text files share: lines, comments, base64, the key id.
enum MinisignText {
    /// Non-empty lines, without `\r`.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }.filter { !$0.isEmpty }
    }

    /// The rest of `line` after `prefix`, nil when it does not start with it.
    static func value(of line: String, prefix: String) -> String? {
        line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
    }

    /// Strict base64 (no whitespace inside).
    static func base64(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { Array($0) }
    }

    /// The id of an 8-byte key number: the number read little-endian, as 16 hex digits (minisign prints the
    /// same number without leading zeros: `4E3B756D6F239F2` is `04E3B756D6F239F2`).
    static func keyID(_ keyNumber: [UInt8]) -> String {
        hex(keyNumber.reversed()).uppercased()
    }

    /// A key id as a person may give it (1 to 16 hex digits, minisign's unpadded form included) in the form
    /// ``keyID(_:)`` makes; nil when it is not one.
    static func normalizedKeyID(_ text: String) -> String? {
        guard (1...16).contains(text.count), text.allSatisfy(\.isHexDigit) else { return nil }
        return String(repeating: "0", count: 16 - text.count) + text.uppercased()
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
