import JSONSchema
import SkillJSON

/// `isValid` (the fast path) and `validate` (the error path) never disagree.
func fuzzSchemaDifferential(_ input: [UInt8]) {
    let (schemaBytes, instanceBytes) = splitAtNUL(input)
    guard let schemaDocument = try? JSONValue(parsing: schemaBytes),
        let schema = try? Schema(compiling: schemaDocument)
    else { return }
    let instance = (try? JSONValue(parsing: instanceBytes)) ?? .null
    let valid = schema.isValid(instance)
    let errors = schema.validate(instance)
    if valid != errors.isEmpty {
        fatalError("isValid=\(valid) but validate gave \(errors.count) errors; schema \(schemaDocument) instance \(instance)")
    }
}
