/// BLAKE2b (RFC 7693), unkeyed, with any output length from 1 to 64 bytes: minisign hashes a file with the
/// 64-byte form before signing it ("prehashed") and checks a secret key with the 32-byte form. OpenSSL 3.0
/// offers only the 64-byte digest, and a shorter BLAKE2b is not a truncated longer one (the length is part
/// of the parameter block), so both are computed here. Checked against Python's `hashlib.blake2b`.
enum BLAKE2b {
    private static let iv: [UInt64] = [
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
    ]

    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    /// The BLAKE2b digest of `input`, `outputLength` bytes long (1…64).
    static func hash(_ input: [UInt8], outputLength: Int = 64) -> [UInt8] {
        precondition((1...64).contains(outputLength), "BLAKE2b output is 1 to 64 bytes")
        var state = iv
        state[0] ^= 0x0101_0000 ^ UInt64(outputLength)
        var counter: (low: UInt64, high: UInt64) = (0, 0)
        var offset = 0
        // Every block but the last is compressed as it comes; the last (possibly empty) one is final.
        while input.count - offset > 128 {
            counter.low &+= 128
            if counter.low < 128 { counter.high &+= 1 }
            compress(&state, input, at: offset, count: 128, counter: counter, final: false)
            offset += 128
        }
        let rest = input.count - offset
        counter.low &+= UInt64(rest)
        if counter.low < UInt64(rest) { counter.high &+= 1 }
        compress(&state, input, at: offset, count: rest, counter: counter, final: true)
        var output: [UInt8] = []
        output.reserveCapacity(64)
        for word in state {
            for shift in stride(from: 0, to: 64, by: 8) { output.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Array(output.prefix(outputLength))
    }

    private static func compress(
        _ state: inout [UInt64], _ input: [UInt8], at offset: Int, count: Int, counter: (low: UInt64, high: UInt64),
        final: Bool
    ) {
        var message = [UInt64](repeating: 0, count: 16)
        for index in 0..<count {
            message[index / 8] |= UInt64(input[offset + index]) << UInt64((index % 8) * 8)
        }
        var v = state + iv
        v[12] ^= counter.low
        v[13] ^= counter.high
        if final { v[14] = ~v[14] }
        func mix(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
            v[a] = v[a] &+ v[b] &+ x
            v[d] = rotate(v[d] ^ v[a], 32)
            v[c] = v[c] &+ v[d]
            v[b] = rotate(v[b] ^ v[c], 24)
            v[a] = v[a] &+ v[b] &+ y
            v[d] = rotate(v[d] ^ v[a], 16)
            v[c] = v[c] &+ v[d]
            v[b] = rotate(v[b] ^ v[c], 63)
        }
        for round in 0..<12 {
            let s = sigma[round % 10]
            mix(0, 4, 8, 12, message[s[0]], message[s[1]])
            mix(1, 5, 9, 13, message[s[2]], message[s[3]])
            mix(2, 6, 10, 14, message[s[4]], message[s[5]])
            mix(3, 7, 11, 15, message[s[6]], message[s[7]])
            mix(0, 5, 10, 15, message[s[8]], message[s[9]])
            mix(1, 6, 11, 12, message[s[10]], message[s[11]])
            mix(2, 7, 8, 13, message[s[12]], message[s[13]])
            mix(3, 4, 9, 14, message[s[14]], message[s[15]])
        }
        for index in 0..<8 { state[index] ^= v[index] ^ v[index + 8] }
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value >> count) | (value << (64 - count))
    }
}
