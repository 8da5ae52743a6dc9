import SkillJSON
import StableHash

/// The idempotency key of a logical call, handed to the skill through its call context (retries of one
/// call carry the same key). Stated here once for every caller:
/// - a call recorded in the history gets ``make(sessionID:skillID:arguments:)``: the same session, skill and
///   arguments (compared as canonical JSON, keys sorted) give the same key, so a repeated request after a
///   crash or a retry by the model is recognised. Format: `<session>/<skill>/<16 hex digits of FNV-1a over
///   the canonical arguments>`;
/// - any other call gets ``fallback(sessionID:callID:)``: its call id, prefixed with its session when it
///   has one.
public enum IdempotencyKey {
    /// The key of a call of `skillID` with `arguments` in `sessionID`.
    public static func make(sessionID: String, skillID: String, arguments: JSONValue) -> String {
        // The canonical bytes themselves (no String made of them); made for every recorded call.
        let hash = arguments.serializedBytes(options: .sortedKeys).withUnsafeBytes { FNV1a.hash64($0) }
        // One string, written once (not three appends).
        var session = sessionID
        var skill = skillID
        return session.withUTF8 { session in
            skill.withUTF8 { skill in
                String(unsafeUninitializedCapacity: session.count + skill.count + 18) { buffer in
                    var count = 0
                    for byte in session { buffer[count] = byte; count += 1 }
                    buffer[count] = UInt8(ascii: "/")
                    count += 1
                    for byte in skill { buffer[count] = byte; count += 1 }
                    buffer[count] = UInt8(ascii: "/")
                    count += 1
                    FNV1a.writeHex(hash, into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                    return count + 16
                }
            }
        }
    }

    /// The key of a call nobody keyed: `callID`, or `sessionID:callID` in a session.
    public static func fallback(sessionID: String, callID: String) -> String {
        guard !sessionID.isEmpty else { return callID }
        // One string, written once (made for every call that is not recorded with a key of its own).
        var session = sessionID
        var call = callID
        return session.withUTF8 { session in
            call.withUTF8 { call in
                String(unsafeUninitializedCapacity: session.count + 1 + call.count) { buffer in
                    var count = UnsafeMutableBufferPointer(rebasing: buffer[...]).initialize(fromContentsOf: session)
                    buffer[count] = UInt8(ascii: ":")
                    count += 1
                    count += UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: call)
                    return count
                }
            }
        }
    }
}
