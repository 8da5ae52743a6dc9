import COpenSSL
import SkillHostCore
import SkillJSON

/// The `requestState` of an approval asked through Multi Round-Trip Requests (2026-07-28, basic/patterns/mrtr):
/// what the client must echo with its answer so that any replica can check, without shared memory, that the
/// answer is for this call (the skill and a digest of its arguments), by this principal, and not stale. It is
/// HMAC-SHA-256 protected with a key every replica reads (``MCPRequestStateKey``); the client cannot change it.
public struct MCPRequestState: Sendable, Equatable {
    /// The skill id.
    public var skillID: String
    /// SHA-256 of the arguments' serialization.
    public var argumentsDigest: String
    /// The token's name ("" on stdio).
    public var principal: String
    /// Unix seconds after which the state is refused.
    public var expires: Int64

    /// How long a client has to answer.
    public static let lifetime: Int64 = 600

    /// A state for a call of `skillID` with `arguments`.
    public init(skillID: String, arguments: JSONValue, principal: String, now: Int64) {
        self.skillID = skillID
        argumentsDigest = FileDigest.sha256(of: arguments.serializedBytes())
        self.principal = principal
        expires = now + Self.lifetime
    }

    /// The opaque string: `v1.<base64url of the fields>.<hex MAC>`.
    public func sealed(with key: [UInt8]) -> String {
        let payload = JSONValue.array([.string(skillID), .string(argumentsDigest), .string(principal), .int(expires)]).serializedBytes()
        let body = Base64URL.encode(payload)
        return "v1.\(body).\(Self.mac(Array("v1.\(body)".utf8), key: key))"
    }

    /// The state in `text` when its MAC is right (nil when it was changed, or sealed with another key).
    public static func open(_ text: String, with key: [UInt8]) -> MCPRequestState? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let payload = Base64URL.decode(String(parts[1])) else { return nil }
        let expected = mac(Array("v1.\(parts[1])".utf8), key: key)
        guard constantTimeEqual(Array(expected.utf8), Array(parts[2].utf8)),
            case .array(let fields)? = try? JSONValue(parsing: payload), fields.count == 4,
            let skill = fields[0].stringValue, let digest = fields[1].stringValue, let principal = fields[2].stringValue,
            case .int(let expires) = fields[3]
        else { return nil }
        return MCPRequestState(skillID: skill, argumentsDigest: digest, principal: principal, expires: expires)
    }

    private init(skillID: String, argumentsDigest: String, principal: String, expires: Int64) {
        self.skillID = skillID
        self.argumentsDigest = argumentsDigest
        self.principal = principal
        self.expires = expires
    }

    /// Whether this state was made for a call of `skillID` with `arguments` by `principal`, before it expired.
    public func matches(skillID: String, arguments: JSONValue, principal: String, now: Int64) -> Bool {
        self.skillID == skillID && self.principal == principal && now <= expires
            && argumentsDigest == FileDigest.sha256(of: arguments.serializedBytes())
    }

    static func mac(_ bytes: [UInt8], key: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            bytes.withUnsafeBytes { input in
                _ = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                         input.count, &digest, &length)
            }
        }
        return digest.prefix(Int(length)).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
