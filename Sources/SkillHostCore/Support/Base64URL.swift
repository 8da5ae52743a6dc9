/// base64url without padding (RFC 4648 §5).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0..<(chunk.count + 1) { out.append(alphabet[Int((value >> (18 - 6 * position)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`; nil when it has a character outside the alphabet.
    public static func decode(_ text: String) -> [UInt8]? {
        var value: UInt32 = 0
        var bits = 0
        var out: [UInt8] = []
        for byte in text.utf8 {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            value = (value << 6) | UInt32(digit)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((value >> UInt32(bits)) & 0xFF))
            }
        }
        return out
    }
}
