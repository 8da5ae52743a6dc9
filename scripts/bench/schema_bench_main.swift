// The Swift side of scripts/bench-schema.sh: times JSONSchema on the benchmark schema and instances.
// usage: schema-bench SCHEMA.json INSTANCES.json MIN_SECONDS [isValid|validate|validate-invalid]
// Prints "<name> <instances/s> <µs/instance> <valid count>" for isValid and for validate (full errors),
// or only the one named (for profiling); validate-invalid times validate on the invalid instances alone.
import Foundation
import JSONSchema

func load(_ path: String) -> JSONValue {
    guard let data = FileManager.default.contents(atPath: path), let value = try? JSONValue(parsing: Array(data)) else {
        FileHandle.standardError.write(Data("schema-bench: cannot read JSON from \(path)\n".utf8))
        exit(2)
    }
    return value
}

let arguments = CommandLine.arguments
guard (4...5).contains(arguments.count), let minSeconds = Double(arguments[3]) else {
    FileHandle.standardError.write(
        Data("usage: schema-bench SCHEMA.json INSTANCES.json MIN_SECONDS [isValid|validate|validate-invalid]\n".utf8))
    exit(2)
}
let schema: Schema
do {
    schema = try Schema(compiling: load(arguments[1]))
} catch {
    FileHandle.standardError.write(Data("schema-bench: \(error)\n".utf8))
    exit(2)
}
let only = arguments.count == 5 ? arguments[4] : nil
let all = load(arguments[2]).arrayValue ?? []
let instances = only == "validate-invalid" ? all.filter { !schema.isValid($0) } : all

/// Best of three runs of at least `minSeconds` each (the machine is shared: the best is the steadiest).
func measure(_ name: String, _ check: (JSONValue) -> Bool) {
    let valid = instances.filter(check).count
    let clock = ContinuousClock()
    var best = 0.0
    for _ in 0..<3 {
        var rounds = 0
        let start = clock.now
        var elapsed = 0.0
        repeat {
            for instance in instances { _ = check(instance) }
            rounds += 1
            let duration = clock.now - start
            elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        } while elapsed < minSeconds
        best = max(best, Double(rounds * instances.count) / elapsed)
    }
    print(String(format: "%@ %.0f %.3f %d", name, best, 1e6 / best, valid))
}

if only == nil || only == "isValid" { measure("swift-jsonschema-isValid") { schema.isValid($0) } }
if only == nil || only == "validate" { measure("swift-jsonschema-validate") { schema.validate($0).isEmpty } }
if only == "validate-invalid" { measure("swift-jsonschema-validate-invalid") { schema.validate($0).isEmpty } }
