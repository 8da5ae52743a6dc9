/// The Bowtie IO protocol (version 1) for this validator: one JSON request per line in, one JSON
/// response per line out (`start`, `dialect`, `run`, `stop`). `skillhost schema bowtie` wires it to
/// stdin/stdout; tests drive ``handle(_:)`` directly.
public struct BowtieHarness: Sendable {
    /// What to do after a request.
    public enum Reply: Equatable, Sendable {
        /// Write this line and read the next request.
        case respond(String)
        /// The `stop` command: exit successfully.
        case stop
        /// A request the protocol cannot answer (not JSON, no `cmd`, `run` before `start`): print this
        /// message on stderr and exit with a failure.
        case fail(String)
    }

    /// The implementation metadata sent in the `start` response.
    public static let implementation: JSONValue = [
        "language": "swift",
        "name": "skillhost-jsonschema",
        "version": "0.1.0",
        "homepage": "https://skillhost.invalid/jsonschema",
        "issues": "https://skillhost.invalid/jsonschema/issues",
        "source": "https://skillhost.invalid/jsonschema/source",
        "dialects": [.string(MetaSchemas.draft202012)],
    ]

    private var started = false

    /// A harness waiting for `start`.
    public init() {}

    /// Answers one request line.
    public mutating func handle(_ line: String) -> Reply {
        let request: JSONValue
        do {
            request = try JSONValue(parsing: line)
        } catch {
            return .fail("bowtie request is not JSON (\(error)); send one JSON object per line")
        }
        guard case .string(let command)? = request["cmd"] else {
            return .fail("bowtie request has no \"cmd\"; expected start, dialect, run or stop")
        }
        if command != "start" && !started {
            return .fail("bowtie sent \"\(command)\" before \"start\"")
        }
        switch command {
        case "start":
            guard request["version"] == .int(1) else {
                return .fail("bowtie protocol version \(request["version"]?.description ?? "missing") is not supported; this harness speaks version 1")
            }
            started = true
            return .respond(JSONValue.object(["version": 1, "implementation": Self.implementation]).serialized())
        case "dialect":
            let dialect = request["dialect"]?.stringValue ?? ""
            return .respond(JSONValue.object(["ok": .bool(dialect == MetaSchemas.draft202012)]).serialized())
        case "run":
            return .respond(run(request).serialized())
        case "stop":
            return .stop
        default:
            return .fail("unknown bowtie command \"\(command)\"; expected start, dialect, run or stop")
        }
    }

    /// Reads requests with `readLine` until `stop` or end of input, writing responses with `write`.
    /// - Returns: nil after `stop` or end of input, or the failure message that ended the session.
    public mutating func serve(readLine: () -> String?, write: (String) -> Void) -> String? {
        while let line = readLine() {
            if line.allSatisfy(\.isWhitespace) { continue }
            switch handle(line) {
            case .respond(let response): write(response)
            case .stop: return nil
            case .fail(let message): return message
            }
        }
        return nil
    }

    private func run(_ request: JSONValue) -> JSONValue {
        let seq = request["seq"] ?? .null
        guard let testCase = request["case"], let schemaValue = testCase["schema"],
            case .array(let tests)? = testCase["tests"]
        else {
            return errored(seq, "the run request has no case with a schema and tests")
        }
        var options = SchemaOptions()
        if case .object(let registry)? = testCase["registry"] {
            for (uri, document) in registry { options.documents[uri] = document }
        }
        let schema: Schema
        do {
            schema = try Schema(compiling: schemaValue, options: options)
        } catch {
            return errored(seq, error.description)
        }
        let results: [JSONValue] = tests.map { test in
            .object(["valid": .bool(schema.isValid(test["instance"] ?? .null))])
        }
        return .object(["seq": seq, "results": .array(results)])
    }

    private func errored(_ seq: JSONValue, _ message: String) -> JSONValue {
        .object(["seq": seq, "errored": true, "context": ["message": .string(message)]])
    }
}
