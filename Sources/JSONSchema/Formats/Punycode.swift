/// RFC 3492 Punycode, for IDNA A-labels (`xn--…`).
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 26
        default: return nil
        }
    }

    private static func character(_ digit: Int) -> Character {
        Character(Unicode.Scalar(UInt8(digit < 26 ? digit + 97 : digit + 22)))
    }

    /// Decodes the part after `xn--`; nil when it is not valid Punycode.
    static func decode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [UInt32] = []
        var index = 0
        if let delimiter = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<delimiter].map(UInt32.init)
            index = delimiter + 1
        }
        var n = initialN, i = 0, bias = initialBias
        while index < bytes.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard index < bytes.count, let value = digit(bytes[index]) else { return nil }
                index += 1
                i += value * weight
                guard i < 0x10FFFF * 36 else { return nil }
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if value < t { break }
                weight *= base - t
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, Unicode.Scalar(UInt32(n)) != nil else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var result = ""
        for code in output { result.unicodeScalars.append(Unicode.Scalar(code)!) }
        return result
    }

    /// Encodes a label's code points (the part after `xn--`).
    static func encode(_ text: String) -> String {
        let input = text.unicodeScalars.map { Int($0.value) }
        var output = String(text.unicodeScalars.filter(\.isASCII).map(Character.init))
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            let m = input.filter { $0 >= n }.min()!
            delta += (m - n) * (handled + 1)
            n = m
            for code in input {
                if code < n { delta += 1 }
                if code == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(character(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(character(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }
}
