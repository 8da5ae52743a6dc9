import Foundation
import JSONSchema

/// `skillhost schema validate SCHEMA_FILE INSTANCE_FILE [--json]` and `skillhost schema bowtie`.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "validate JSON against a JSON Schema (2020-12); Bowtie harness"
    static let help = """
        usage: skillhost schema validate SCHEMA_FILE INSTANCE_FILE [--json] [--assert-formats] [--max-errors N]
               skillhost schema bowtie

        validate  Checks INSTANCE_FILE against the draft 2020-12 schema in SCHEMA_FILE ('-' reads that file
                  from stdin) and prints each error with its instance location, schema keyword location
                  and what to fix; prints "FILE: valid" otherwise.
        bowtie    Serves the Bowtie IO protocol (version 1) on stdin/stdout, one JSON object per line, so
                  Bowtie can run its conformance suites against this validator.

        Options (validate):
          --json             print {"valid":bool,"errors":[{"instanceLocation","keywordLocation","message"}]},
                             or {"valid":false,"error":{"kind","message","pointer"}} for a bad schema or file
          --assert-formats   make "format" an assertion (date-time, email, uuid, ...), not an annotation
          --max-errors N     report at most N errors (default 20)

        Exit codes: \(ExitCode.success) valid, \(ExitCode.failure) invalid, \(ExitCode.usage) bad schema, unreadable or non-JSON file, or usage error.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let subcommand = arguments.first else { throw UsageError("expected 'validate' or 'bowtie'") }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "validate": return try validate(rest)
        case "bowtie": return try bowtie(rest)
        default: throw UsageError("unknown schema subcommand '\(subcommand)'; expected 'validate' or 'bowtie'")
        }
    }

    private static func validate(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--assert-formats"], options: ["--max-errors"])
        guard parsed.positionals.count == 2 else { throw UsageError("expected SCHEMA_FILE and INSTANCE_FILE") }
        var maxErrors = 20
        if let text = parsed.options["--max-errors"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--max-errors needs a positive number, got '\(text)'") }
            maxErrors = value
        }
        var options = SchemaOptions()
        options.assertFormats = parsed.has("--assert-formats")
        let (schemaPath, instancePath) = (parsed.positionals[0], parsed.positionals[1])
        do {
            let errors = try SchemaFileCheck.validate(
                schemaText: try read(schemaPath), schemaName: schemaPath,
                instanceText: try read(instancePath), instanceName: instancePath,
                options: options, maxErrors: maxErrors)
            if parsed.has("--json") {
                print(SchemaFileCheck.jsonReport(errors).serialized())
            } else {
                print(SchemaFileCheck.textReport(errors, instanceName: instancePath))
            }
            return errors.isEmpty ? ExitCode.success : ExitCode.failure
        } catch let error as SchemaFileCheck.InputError {
            if parsed.has("--json") { print(SchemaFileCheck.jsonReport(error).serialized()) }
            throw error
        }
    }

    /// The bytes of `path` ('-' is stdin).
    private static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SchemaFileCheck.InputError(message: "\(path): cannot read the file (missing or not readable); check the path")
        }
        return Array(data)
    }

    private static func bowtie(_ arguments: [String]) throws -> Int32 {
        _ = try ParsedArguments(arguments, flags: [], options: [])
        var harness = BowtieHarness()
        let failure = harness.serve(
            readLine: { Swift.readLine(strippingNewline: true) },
            write: { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            })
        if let failure { throw SchemaFileCheck.InputError(message: failure) }
        return ExitCode.success
    }
}
