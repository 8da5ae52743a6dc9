// The one libFuzzer executable holding every fuzz target of SkillHost (issue #16).
// Built by scripts/fuzz.sh with `swiftc -sanitize=fuzzer,address` against the library modules that
// `swift build --build-path .build/fuzz -Xswiftc -sanitize=fuzzer,address` compiled with coverage.
// The target runs is chosen by the FUZZ_TARGET environment variable (see ``FuzzTargets/all``).
import Foundation

/// Every target: name → the function libFuzzer calls with one input.
enum FuzzTargets {
    static let all: [String: ([UInt8]) -> Void] = [
        "json": fuzzJSON,
        "json-diff": fuzzJSONDifferential,
        "schema": fuzzSchema,
        "schema-diff": fuzzSchemaDifferential,
        "manifest": fuzzManifest,
        "elf": fuzzELF,
        "regex": fuzzRegex,
        "frame": fuzzFrame,
        "frame-stream": fuzzFrameStream,
        "sse": fuzzSSE,
        "http": fuzzHTTP,
        "http-request": fuzzHTTPRequest,
        "stream": fuzzStream,
        "openai": fuzzOpenAI,
        "registry": fuzzRegistry,
        "yaml": fuzzYAML,
        "ical": fuzzICalendar,
        "mcp": fuzzMCP,
        "mcp-diff": fuzzMCPCallDifferential,
        "tzif": fuzzTZif,
        "skillpkg": fuzzPackage,
        "web-access": fuzzWebAccess,
        "workflow": fuzzWorkflow,
    ]

    nonisolated(unsafe) static let selected: ([UInt8]) -> Void = {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = all[name] else {
            FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(all.keys.sorted().joined(separator: " "))\n".utf8))
            exit(2)
        }
        return target
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTargets.selected(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Splits `input` at its first NUL byte (the second part is empty when there is none).
func splitAtNUL(_ input: [UInt8]) -> ([UInt8], [UInt8]) {
    guard let nul = input.firstIndex(of: 0) else { return (input, []) }
    return (Array(input[..<nul]), Array(input[(nul + 1)...]))
}
