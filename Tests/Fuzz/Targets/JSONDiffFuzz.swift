import Foundation
import SkillJSON

/// The JSON parser against Foundation's `JSONSerialization`: both accept or both reject, and accepted
/// documents hold the same value. Documented exceptions, where SkillJSON is deliberately stricter or the
/// two cannot be compared:
/// - nesting deeper than ``JSONValue/maximumParseDepth`` (SkillJSON rejects; Foundation may accept);
/// - duplicate object keys (Foundation keeps one; SkillJSON's choice is compared only without duplicates);
/// - numbers: compared as doubles to 12 significant digits (Foundation on Linux reads long literals as
///   `Decimal`, whose `doubleValue` is not correctly rounded); integers beyond Int64 are skipped, and numbers beyond Double's range
///   (`1e999`), which SkillJSON rejects and Foundation reads as infinity;
/// - trailing commas (`[1,]`, `{"a":1,}`): Foundation accepts them, SkillJSON rejects them as RFC 8259 does;
/// - inputs that are not valid UTF-8, or hold a NUL, a lone surrogate escape or a byte order mark
///   (Foundation detects UTF-16/32 encodings and tolerates some of these).
func fuzzJSONDifferential(_ input: [UInt8]) {
    if input.count > 4096 || input.contains(0) || String(validating: input, as: UTF8.self) == nil { return }
    if input.starts(with: [0xEF, 0xBB, 0xBF]) { return }
    let text = String(decoding: input, as: UTF8.self)
    if text.contains("\\u") && (text.contains("\\uD") || text.contains("\\ud")) { return }
    var outOfRange = false
    let ours: JSONValue?
    do { ours = try JSONValue(parsing: input) } catch {
        ours = nil
        // A number beyond Double's range (the exception above), also when a duplicate key hides Foundation's
        // infinity (`{"a":1e4001,"a":2}`, found by CI's 20 s run).
        outOfRange = "\(error)".contains("is out of range")
    }
    let theirs = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])
    switch (ours, theirs) {
    case (nil, nil): return
    case (let value?, nil):
        fatalError("SkillJSON accepts what JSONSerialization rejects: \(value)")
    case (nil, let other?):
        if outOfRange || containsNonFinite(other) { return }
        if depth(of: input) > JSONValue.maximumParseDepth || hasTrailingComma(input) { return }
        fatalError("SkillJSON rejects what JSONSerialization accepts: \(text.debugDescription)")
    case (let value?, let other?):
        if !agree(value, other) { fatalError("values differ: \(value) vs \(other)") }
    }
}

private func depth(of input: [UInt8]) -> Int {
    var current = 0, deepest = 0
    for byte in input {
        if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { current += 1; deepest = max(deepest, current) }
        if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { current -= 1 }
    }
    return deepest
}

private func agree(_ value: JSONValue, _ other: Any) -> Bool {
    switch value {
    case .null: return other is NSNull
    case .bool(let flag):
        guard let number = other as? NSNumber else { return false }
        return number.boolValue == flag
    case .int(let integer):
        guard let number = other as? NSNumber else { return false }
        return number.doubleValue == Double(integer) || !number.doubleValue.isFinite
    case .double(let double):
        guard let number = other as? NSNumber else { return false }
        let theirs = number.doubleValue
        if !double.isFinite || !theirs.isFinite { return true }
        return theirs == double || abs(theirs - double) <= abs(double) * 1e-12
    case .string(let string):
        guard let theirs = other as? String else { return false }
        return theirs == string
    case .array(let items):
        guard let theirs = other as? [Any], theirs.count == items.count else { return false }
        return zip(items, theirs).allSatisfy { agree($0, $1) }
    case .object(let object):
        guard let theirs = other as? [String: Any] else { return false }
        if theirs.count != object.count { return true }  // duplicate keys: not comparable
        for key in object.keys {
            guard let mine = object[key], let their = theirs[key], agree(mine, their) else { return false }
        }
        return true
    }
}

/// Whether a `,` is followed (after whitespace) by `]` or `}` outside strings.
private func hasTrailingComma(_ input: [UInt8]) -> Bool {
    var inString = false, escaped = false, afterComma = false
    for byte in input {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true; afterComma = false
        case UInt8(ascii: ","): afterComma = true
        case UInt8(ascii: "]"), UInt8(ascii: "}"): if afterComma { return true }
        case 0x20, 0x09, 0x0A, 0x0D: break
        default: afterComma = false
        }
    }
    return false
}

/// Whether Foundation's value holds an infinite or NaN number (an out-of-range literal).
private func containsNonFinite(_ value: Any) -> Bool {
    if let number = value as? NSNumber, !(value is Bool) { return !number.doubleValue.isFinite }
    if let array = value as? [Any] { return array.contains(where: containsNonFinite) }
    if let object = value as? [String: Any] { return object.values.contains(where: containsNonFinite) }
    return false
}
