// swift-tools-version:6.0
// The SkillHost SDK: what a third-party skill plugin builds against, as a SwiftPM package of its own.
//
// scripts/install.sh copies this file and the sources of the targets below (from the SkillHost checkout it
// runs in) to <prefix>/share/skillhost/sdk/skillhost-sdk-<ABI>/; `skillhost sdk path` prints where, and
// `skillhost new` writes plugin packages that depend on it. The targets are the checkout's own, declared as
// the checkout's Package.swift declares them (SDKPackageTests compares the two).
//
//   SkillSDK     what plugins import: the Skill protocol, SkillPlugin, the export line (static)
//   SkillCheck   what plugins' tests import: `plugin.problems`, the host's manifest checker
//   CSkillABI    the C ABI (skill_abi.h, skill_json.h), also installed as <prefix>/include/skillhost/
import PackageDescription

let package = Package(
    name: "SkillHostSDK",
    products: [
        .library(name: "SkillSDK", type: .static, targets: ["SkillSDK"]),
        .library(name: "SkillCheck", targets: ["SkillCheck"]),
        .library(name: "CSkillABI", targets: ["CSkillABI"]),
    ],
    targets: [
        .target(name: "CSkillABI"),
        .target(name: "SkillJSON", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SkillContract", dependencies: ["CSkillABI", "SkillJSON"]),
        .target(name: "SkillPosix", dependencies: ["CPosixEvents"]),
        .target(name: "CPosixEvents"),
        .target(name: "SkillSDK", dependencies: ["CSkillABI", "SkillContract", "SkillJSON", "SkillPosix"]),
        .target(name: "JSONSchema", dependencies: ["SkillJSON"], exclude: ["MetaSchemas/COPYING"]),
        .target(name: "StableHash"),
        .target(
            name: "ManifestCheck",
            dependencies: ["SkillContract", "SkillJSON", "JSONSchema", "StableHash"],
            exclude: ["Resources/manifest.schema.json"]
        ),
        .target(name: "SkillCheck", dependencies: ["SkillSDK", "ManifestCheck"]),
    ]
)
