import JSONSchema
import SkillJSON

/// Schema compilation plus validation: schema before the first NUL, instance after it.
func fuzzSchema(_ input: [UInt8]) {
    let (schemaBytes, instanceBytes) = splitAtNUL(input)
    guard let schemaDocument = try? JSONValue(parsing: schemaBytes),
        let schema = try? Schema(compiling: schemaDocument)
    else { return }
    let instance = (try? JSONValue(parsing: instanceBytes)) ?? .null
    _ = schema.validate(instance)
}
