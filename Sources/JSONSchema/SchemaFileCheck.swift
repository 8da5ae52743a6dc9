/// Validating one JSON file against a schema file, as `skillhost schema validate` does: parse both,
/// compile, validate, and render the result for people or as JSON.
public enum SchemaFileCheck {
    /// A schema or instance file that cannot be used: not JSON, or not a valid schema. One line that
    /// names the file and the place.
    public struct InputError: Error, Sendable, CustomStringConvertible, Equatable {
        /// "schema.json: line 3, column 7: expected ',' or '}' after an object member".
        public var message: String
        /// The schema fault when the schema file parsed but is not a valid schema.
        public var schemaError: SchemaError?

        /// Creates an error with its one-line message.
        public init(message: String, schemaError: SchemaError? = nil) {
            self.message = message
            self.schemaError = schemaError
        }

        public var description: String { message }
    }

    /// Parses and compiles `schemaText`, parses `instanceText`, and validates.
    /// - Returns: the errors (`[]` when valid), at most `maxErrors`.
    /// - Throws: ``InputError`` when either file is not JSON or the schema is invalid.
    public static func validate(
        schemaText: [UInt8], schemaName: String, instanceText: [UInt8], instanceName: String,
        options: SchemaOptions = .init(), maxErrors: Int = 20
    ) throws(InputError) -> [ValidationError] {
        let schemaValue: JSONValue
        do {
            schemaValue = try JSONValue(parsing: schemaText)
        } catch {
            throw InputError(message: "\(schemaName): not JSON: \(error); fix the schema file")
        }
        let schema: Schema
        do {
            schema = try Schema(compiling: schemaValue, options: options)
        } catch {
            throw InputError(message: "\(schemaName): \(error)", schemaError: error)
        }
        let instance: JSONValue
        do {
            instance = try JSONValue(parsing: instanceText)
        } catch {
            throw InputError(message: "\(instanceName): not JSON: \(error); fix the instance file")
        }
        return schema.validate(instance, maxErrors: maxErrors)
    }

    /// Lines for people: "NAME: valid", or one "NAME: `/a`: message (schema /properties/a/type)" per error.
    public static func textReport(_ errors: [ValidationError], instanceName: String) -> String {
        guard !errors.isEmpty else { return "\(instanceName): valid" }
        return errors.map { error in
            "\(instanceName): \(error.description) (schema \(error.keywordLocation.isEmpty ? "(root)" : error.keywordLocation))"
        }.joined(separator: "\n")
    }

    /// `{"valid": bool, "errors": [{"instanceLocation", "keywordLocation", "message"}]}`.
    public static func jsonReport(_ errors: [ValidationError]) -> JSONValue {
        .object([
            "valid": .bool(errors.isEmpty),
            "errors": .array(errors.map(\.json)),
        ])
    }

    /// `{"valid": false, "error": {"kind": "invalid_schema"|"invalid_input", "message", "pointer"?}}`.
    public static func jsonReport(_ error: InputError) -> JSONValue {
        var detail: JSONObject = [
            "kind": .string(error.schemaError == nil ? "invalid_input" : "invalid_schema"),
            "message": .string(error.message),
        ]
        if let schemaError = error.schemaError { detail["pointer"] = .string(schemaError.pointer) }
        return .object(["valid": false, "error": .object(detail)])
    }
}

extension ValidationError {
    /// `{"instanceLocation", "keywordLocation", "message"}`.
    public var json: JSONValue {
        [
            "instanceLocation": .string(instanceLocation),
            "keywordLocation": .string(keywordLocation),
            "message": .string(message),
        ]
    }
}
