// The Swift side of scripts/bench-schema.sh: times JSONSchema on the benchmark schema and instances.
// usage: schema-bench SCHEMA.json INSTANCES.json MIN_SECONDS
// Prints "<name> <instances/s> <µs/instance> <valid count>" for isValid and for validate (full errors).
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
guard arguments.count == 4, let minSeconds = Double(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: schema-bench SCHEMA.json INSTANCES.json MIN_SECONDS\n".utf8))
    exit(2)
}
let schema: Schema
do {
    schema = try Schema(compiling: load(arguments[1]))
} catch {
    FileHandle.standardError.write(Data("schema-bench: \(error)\n".utf8))
    exit(2)
}
let instances = load(arguments[2]).arrayValue ?? []

func measure(_ name: String, _ check: (JSONValue) -> Bool) {
    let valid = instances.filter(check).count
    var rounds = 0
    let clock = ContinuousClock()
    let start = clock.now
    var elapsed = 0.0
    repeat {
        for instance in instances { _ = check(instance) }
        rounds += 1
        let duration = clock.now - start
        elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    } while elapsed < minSeconds
    let perSecond = Double(rounds * instances.count) / elapsed
    print(String(format: "%@ %.0f %.3f %d", name, perSecond, 1e6 / perSecond, valid))
}

measure("swift-jsonschema-isValid") { schema.isValid($0) }
measure("swift-jsonschema-validate") { schema.validate($0).isEmpty }
