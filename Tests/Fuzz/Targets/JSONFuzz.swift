import SkillJSON

/// The JSON parser: any bytes either parse or throw a positioned error; what parses serializes and
/// parses back to the same value. A parse sharing strings (``JSONSharedStrings``) gives the same value,
/// string for string, or the same error.
func fuzzJSON(_ input: [UInt8]) {
    let plain = Result { () throws(JSONParseError) in try JSONValue(parsing: input) }
    let shared = Result { () throws(JSONParseError) in try JSONValue(parsing: input, sharing: fuzzSharedStrings) }
    switch (plain, shared) {
    case (.success(let value), .success(let other)):
        if value.serialized() != other.serialized() { fatalError("a parse sharing strings differs: \(value) vs \(other)") }
    case (.failure(let error), .failure(let other)):
        if error != other { fatalError("a parse sharing strings fails otherwise: \(error) vs \(other)") }
    default:
        fatalError("a parse sharing strings disagrees: \(plain) vs \(shared)")
    }
    guard case .success(let value) = plain else { return }
    let text = value.serialized()
    guard let again = try? JSONValue(parsing: text) else { fatalError("serialized output does not parse: \(text)") }
    if again.serialized() != text { fatalError("round trip changed the value: \(text)") }
}

/// Short strings fuzzed documents are made of (the seeds' and the dictionary's), and near misses.
let fuzzSharedStrings = JSONSharedStrings([
    "a", "b", "c", "ab", "ba", "key", "value", "true", "false", "null", "x", "é", "\u{0}", "\"", "\\", "a\"b",
    "jsonrpc", "2.0", "id", "method", "params", "name", "arguments", "tools/call", "_meta",
])
