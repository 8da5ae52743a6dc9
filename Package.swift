// swift-tools-version:6.0
// SkillHost: a plugin host for AI-agent skills on Linux.
//
// Layers only look down:
//   CSkillABI ← SkillSDK (static; what plugin authors import)
//   SkillJSON ← JSONSchema ← SkillHostCore ← SkillAgent ← skillhost (CLI)
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
func swiftPlugin(_ name: String) -> (Product, Target) {
    (
        .library(name: name, type: .dynamic, targets: [name]),
        .target(
            name: name,
            dependencies: ["SkillSDK"],
            path: "Plugins/\(name)",
            linkerSettings: pluginLinkerSettings
        )
    )
}

let plugins = [swiftPlugin("ClockSkill"), swiftPlugin("TextSkill")]

let package = Package(
    name: "SkillHost",
    products: [
        .executable(name: "skillhost", targets: ["skillhost"]),
        .library(name: "SkillSDK", type: .static, targets: ["SkillSDK"]),
        .library(name: "CSkillABI", targets: ["CSkillABI"]),
        .library(name: "JSONSchema", targets: ["JSONSchema"]),
        .library(name: "SkillHostCore", targets: ["SkillHostCore"]),
        .library(name: "SkillAgent", targets: ["SkillAgent"]),
    ] + plugins.map(\.0),
    targets: [
        // The C ABI: one C99 header, usable alone from C.
        .target(name: "CSkillABI"),
        // JSON value type shared by the SDK, the validator and the host.
        .target(name: "SkillJSON", linkerSettings: [.linkedLibrary("m")]),
        // JSON Schema draft 2020-12 validator.
        .target(name: "JSONSchema", dependencies: ["SkillJSON"], exclude: ["MetaSchemas/COPYING"]),
        // What third-party skill authors import.
        .target(name: "SkillSDK", dependencies: ["CSkillABI", "SkillJSON"]),
        // OpenSSL libcrypto (SHA-256 for plugin trust).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // The kernel half of the worker sandbox: Landlock, seccomp, no_new_privs (issue #10).
        .target(name: "CSandbox"),
        // Discovery, scanning, manifest, IDs, registry, dispatch, isolation, trust.
        .target(
            name: "SkillHostCore",
            dependencies: ["CSkillABI", "SkillJSON", "JSONSchema", "COpenSSL", "CSandbox"],
            // The manifest schema ships as a file for readers and is embedded as a string (ManifestSchema.swift).
            exclude: ["Resources/manifest.schema.json"]
        ),
        // Agent loop and model providers.
        .target(name: "SkillAgent", dependencies: ["SkillHostCore", "SkillJSON", "JSONSchema"]),
        // The thin CLI.
        .executableTarget(name: "skillhost", dependencies: ["SkillHostCore", "SkillAgent", "JSONSchema"]),

        .testTarget(name: "SkillJSONTests", dependencies: ["SkillJSON"]),
        .testTarget(
            name: "JSONSchemaTests",
            dependencies: ["JSONSchema"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SkillSDKTests", dependencies: ["SkillSDK", "CSkillABI"]),
        .testTarget(name: "SkillHostCoreTests", dependencies: ["SkillHostCore", "CSkillABI"]),
        .testTarget(
            name: "SkillAgentTests",
            dependencies: ["SkillAgent", "SkillHostCore", "JSONSchema", "SkillJSON"],
            resources: [.copy("Fixtures")]
        ),
    ] + plugins.map(\.1)
)
