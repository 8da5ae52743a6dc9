// swift-tools-version:6.0
// SkillHost: a plugin host for AI-agent skills on Linux.
//
// Layers only look down:
//   CSkillABI, SkillJSON ← SkillContract (the rules SDK and host share) ← SkillSDK (static; what plugin
//   authors import)
//   SkillJSON ← JSONSchema ← ManifestCheck (the one manifest checker) ← SkillHostCore ← SkillCalls (the one path of a
//   tool call) ← {SkillAgent, SkillMCP} ← skillhost; SkillAgent + SkillHTTP + SkillWorkflows ← SkillWeb (`skillhost ui`) ← skillhost
//   SkillPosix, COpenSSL ← SkillHTTP (an HTTP/1.1 server; header-field rules) ← {SkillAgent, SkillMCP}
//   SkillSDK + ManifestCheck ← SkillCheck (what plugin authors' tests import)
//   CPosixEvents (epoll, eventfd) ← SkillPosix (system calls, reaping, clocks, durable files, event loops) ← SkillHostCore (re-exported), SkillStore,
//   SkillSDK (its clock), ICalendar (locked atomic calendar files)
//   Tests/SkillTestSupport (shared test helpers) ← every test target; skillhostTests: the CLI's tests
// No package dependencies: everything here builds from the toolchain and Debian's C libraries.
import PackageDescription

/// Absolute path of the package root, so linker flags that name files work from any working directory.
let packageRoot: String = {
    var path = #filePath
    while let last = path.last, last != "/" { path.removeLast() }
    return String(path.dropLast())
}()

/// Swift plugins export exactly one symbol, `skill_plugin_entry` (see Plugins/skill_exports.map). Linked
/// with lld, whose dynamic symbol table then holds only that symbol (gold also lists the hidden Swift
/// metadata there, as LOCAL entries, which `nm -D --defined-only` shows).
let pluginLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--version-script=\(packageRoot)/Plugins/skill_exports.map"]),
]

/// Declares one example Swift plugin: `Plugins/<name>/` built as `lib<name>.so`.
func swiftPlugin(_ name: String, using libraries: [Target.Dependency] = []) -> (Product, Target) {
    (
        .library(name: name, type: .dynamic, targets: [name]),
        .target(
            name: name,
            dependencies: ["SkillSDK"] + libraries,
            path: "Plugins/\(name)",
            linkerSettings: pluginLinkerSettings
        )
    )
}

let plugins = [swiftPlugin("ClockSkill", using: ["ZoneInfo"]), swiftPlugin("TextSkill")]
    + [swiftPlugin("FilesSkill")]
    + [swiftPlugin("CalendarSkill", using: ["ICalendar", "CalendarSkillSupport"]), swiftPlugin("RemindersSkill", using: ["ICalendar", "CalendarSkillSupport"])]
    + [swiftPlugin("BenchEchoSkill")]  // scripts/bench.sh: the Swift twin of scripts/bench/dispatch_echo.c
    // The attacker's suite (issue #34) from a Swift plugin: Tests/Fixtures/Attack's attempts, installed by tests only.
    + [(
        .library(name: "AttackSkill", type: .dynamic, targets: ["AttackSkill"]),
        .target(
            name: "AttackSkill", dependencies: ["SkillSDK", "AttackAttempts"], path: "Tests/Fixtures/Attack/Swift",
            linkerSettings: pluginLinkerSettings)
    )]

let package = Package(
    name: "SkillHost",
    products: [
        .executable(name: "skillhost", targets: ["skillhost"]),
        .library(name: "SkillSDK", type: .static, targets: ["SkillSDK"]),
        .library(name: "SkillCheck", targets: ["SkillCheck"]),
        .library(name: "CSkillABI", targets: ["CSkillABI"]),
        .library(name: "JSONSchema", targets: ["JSONSchema"]),
        .library(name: "SkillHostCore", targets: ["SkillHostCore"]),
        .library(name: "SkillCalls", targets: ["SkillCalls"]),
        .library(name: "SkillAgent", targets: ["SkillAgent"]),
        .library(name: "SkillMCP", targets: ["SkillMCP"]),
        .library(name: "SkillHTTP", targets: ["SkillHTTP"]),
        .library(name: "SkillStore", targets: ["SkillStore"]),
        .library(name: "SkillWeb", targets: ["SkillWeb"]),
    ] + plugins.map(\.0),
    targets: [
        // The C ABI: one C99 header, usable alone from C.
        .target(name: "CSkillABI"),
        // JSON value type shared by the SDK, the validator and the host.
        .target(name: "SkillJSON", linkerSettings: [.linkedLibrary("m")]),
        // JSON Schema draft 2020-12 validator.
        .target(name: "JSONSchema", dependencies: ["SkillJSON"], exclude: ["MetaSchemas/COPYING"]),
        // FNV-1a, the one stable hash (caches, finish records, call keys, tool names, calendar UIDs).
        .target(name: "StableHash"),
        // What SDK and host must agree on: id grammar, permission levels, semver, defaults, ABI version.
        .target(name: "SkillContract", dependencies: ["CSkillABI", "SkillJSON"]),
        // The one manifest checker: the host's scanner, `skillhost validate` and SkillCheck use it.
        .target(
            name: "ManifestCheck",
            dependencies: ["SkillContract", "SkillJSON", "JSONSchema", "StableHash"],
            // The manifest schema ships as a file for readers and is embedded as a string (ManifestSchema.swift).
            exclude: ["Resources/manifest.schema.json"]
        ),
        // What third-party skill authors import.
        .target(name: "SkillSDK", dependencies: ["CSkillABI", "SkillContract", "SkillJSON", "SkillPosix"]),
        // What skill authors' tests import: `plugin.problems`, the host's checker run on their manifest.
        .target(name: "SkillCheck", dependencies: ["SkillSDK", "ManifestCheck"]),
        // OpenSSL libcrypto (SHA-256 for plugin trust).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // The kernel half of the worker sandbox: namespaces, Landlock, seccomp, capabilities (issues #10, #34).
        // helper/ is `skillhost-sandbox`, a small C program built by scripts/build-sandbox-helper.sh with cc
        // (SwiftPM would link the Swift runtime into it, which would cost it its point: a cheap start).
        .target(name: "CSandbox", exclude: ["helper"]),
        // System calls, process reaping, signal wording and clocks, once for every target (SkillHostCore
        // re-exports it and adds the calls that fail with a HostError).
        .target(name: "SkillPosix", dependencies: ["CPosixEvents"]),
        // epoll and eventfd in plain C values (Glibc's Swift module has neither), for Posix.EventPoll.
        .target(name: "CPosixEvents"),
        // Discovery, scanning, manifest, IDs, registry, dispatch, isolation, trust.
        .target(
            name: "SkillHostCore",
            dependencies: ["CSkillABI", "SkillContract", "ManifestCheck", "SkillJSON", "JSONSchema", "COpenSSL", "CSandbox", "SkillPosix", "StableHash"]
        ),
        // SQLite 3 (history, traces, session context).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // A SQLite VFS shim that writes a WAL transaction with one pwrite (docs/history.md, "Cost").
        .target(name: "CSQLiteBatch", dependencies: ["CSQLite"]),
        // Sessions, messages, skill calls and session context in one SQLite database (docs/history.md).
        .target(name: "SkillStore", dependencies: ["CSQLite", "CSQLiteBatch", "SkillJSON", "SkillPosix", "StableHash"]),
        // The tool-call layer: the tool type and names, one invocation from argument bytes, one approval protocol
        // asked before the clock starts, outcome → tool result, recording every call (docs/architecture.md).
        .target(name: "SkillCalls", dependencies: ["SkillHostCore", "SkillStore", "SkillJSON", "JSONSchema", "StableHash"]),
        // Workflows: skills composed into a graph, checked before they run, durable, scheduled (docs/workflows.md).
        .target(name: "SkillWorkflows", dependencies: ["SkillCalls", "SkillHostCore", "SkillStore", "SkillJSON", "JSONSchema", "ZoneInfo"]),
        // A small HTTP/1.1 server (limits, timeouts, keep-alive, TLS) and the header-field rules the model
        // provider's client shares; MCP's Streamable HTTP transport and the local web UI sit on it.
        .target(name: "SkillHTTP", dependencies: ["SkillPosix", "COpenSSL"]),
        // Agent loop and model providers.
        .target(name: "SkillAgent", dependencies: ["SkillCalls", "SkillHostCore", "SkillPosix", "SkillJSON", "JSONSchema", "SkillStore", "SkillHTTP", "COpenSSL"]),
        // iCalendar (RFC 5545) reading, writing, recurrence and locked atomic files; linked into the
        // calendar and reminders plugins.
        .target(name: "ICalendar", dependencies: ["SkillPosix", "ZoneInfo", "StableHash"], exclude: ["WindowsZones/COPYING"]),
        // TZif files (RFC 8536) and POSIX TZ rules: the system's time-zone database without Foundation;
        // linked into the clock plugin (issue #9: a plugin without Foundation and ICU starts fast).
        .target(name: "ZoneInfo"),
        // What the calendar and reminders plugins share on top of ICalendar and the SDK: the one reader of
        // their settings (file, zone) and file errors as skill failures; linked into both plugins.
        .target(name: "CalendarSkillSupport", dependencies: ["ICalendar", "SkillSDK"]),
        // MCP server over stdio: the enabled skills as tools, instruction skills per SEP-2640.
        .target(name: "SkillMCP", dependencies: ["SkillCalls", "SkillHostCore", "SkillJSON", "SkillPosix", "SkillHTTP", "StableHash", "COpenSSL"]),
        // `skillhost ui`: the local web app (chat, sessions, skills, trace) on the HTTP server, the agent loop and
        // the tool-call layer; the page is embedded (docs/ui.md).
        .target(name: "SkillWeb", dependencies: ["SkillAgent", "SkillCalls", "SkillHostCore", "SkillStore", "SkillJSON", "SkillHTTP", "SkillWorkflows"]),
        // The attempts of the attacker's suite, in C, for the Swift attack plugin (the C one compiles them itself).
        .target(
            name: "AttackAttempts", path: "Tests/Fixtures/Attack", exclude: ["attack_plugin.c", "Swift"],
            sources: ["attack_attempts.c"], publicHeadersPath: "."),
        // The thin CLI.
        .executableTarget(name: "skillhost", dependencies: ["SkillHostCore", "SkillCalls", "SkillAgent", "JSONSchema", "SkillMCP", "SkillStore", "SkillHTTP", "SkillWeb", "SkillWorkflows"]),

        .testTarget(name: "SkillJSONTests", dependencies: ["SkillJSON"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),
        .testTarget(
            name: "JSONSchemaTests",
            dependencies: ["JSONSchema"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SkillSDKTests", dependencies: ["SkillSDK", "SkillCheck", "CSkillABI"]),
        .testTarget(name: "SkillHostCoreTests", dependencies: ["SkillHostCore", "CSkillABI", "StableHash"]),
        .testTarget(
            name: "SkillAgentTests",
            dependencies: ["SkillAgent", "SkillCalls", "SkillHostCore", "JSONSchema", "SkillJSON"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SkillCallsTests", dependencies: ["SkillCalls", "SkillHostCore", "SkillStore", "SkillJSON"]),
        .testTarget(name: "SkillMCPTests", dependencies: ["SkillMCP", "SkillCalls", "SkillHostCore", "SkillJSON", "SkillHTTP", "JSONSchema"]),
        // `skillhost ui`: its access checks, and the page in headless Chromium driven by Selenium (docs/ui.md).
        .testTarget(name: "SkillWebTests", dependencies: ["SkillWeb", "SkillHTTP", "SkillJSON", "SkillAgent", "SkillCalls", "SkillHostCore", "SkillStore", "SkillWorkflows"]),
        .testTarget(name: "SkillWorkflowsTests", dependencies: ["SkillWorkflows", "SkillCalls", "SkillHostCore", "SkillStore", "SkillJSON"]),
        .testTarget(name: "SkillStoreTests", dependencies: ["SkillStore", "SkillCalls", "SkillAgent", "SkillHostCore", "SkillJSON", "CSQLite"]),
    ] + plugins.map(\.1)
)

// Shared test helpers (package root, the built binary, C fixtures, processes, Python peers, the fuzz corpus),
// written once and used by every test target; each test target re-exports it (SkillTestSupportExport.swift).
package.targets.append(
    .target(
        name: "SkillTestSupport",
        dependencies: ["SkillHostCore", "SkillCalls", "SkillJSON", "CSkillABI"],
        path: "Tests/SkillTestSupport"
    )
)
// The TZif reader and zone rules, checked against Python's zoneinfo reading the same files.
package.targets.append(.testTarget(name: "ZoneInfoTests", dependencies: ["ZoneInfo"]))
// The CLI's own tests: those that run the `skillhost` binary and check what it parses and prints.
package.targets.append(.testTarget(name: "skillhostTests", dependencies: ["skillhost", "SkillHostCore", "SkillJSON"]))
for target in package.targets where target.type == .test {
    target.dependencies.append("SkillTestSupport")
}
