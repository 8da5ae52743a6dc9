import SkillJSON

/// The JSON parser: any bytes either parse or throw a positioned error; what parses serializes and
/// parses back to the same value.
func fuzzJSON(_ input: [UInt8]) {
    guard let value = try? JSONValue(parsing: input) else { return }
    let text = value.serialized()
    guard let again = try? JSONValue(parsing: text) else { fatalError("serialized output does not parse: \(text)") }
    if again.serialized() != text { fatalError("round trip changed the value: \(text)") }
}
