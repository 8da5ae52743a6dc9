import SkillHostCore
import Testing

/// base64url without padding (RFC 4648 §5): the RFC's test vectors, the URL-safe letters, round trips, and
/// text outside the alphabet refused.
@Suite struct Base64URLTests {
    @Test func theRFCVectorsWithoutPadding() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test func everyLengthRoundTripsAndOtherLettersAreRefused() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) & 0xFF) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("Zm9v+") == nil)
        #expect(Base64URL.decode("Zm9v=") == nil)
        let secret = AccessToken.generateSecret()
        #expect(secret.hasPrefix("skh_") && secret.count == 4 + 43)
        #expect(Base64URL.decode(String(secret.dropFirst(4)))?.count == 32)
    }
}
