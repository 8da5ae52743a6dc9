// swift-tools-version:6.0
// A third-party skill plugin, built outside the SkillHost package: it depends on SkillSDK by path the way
// an author's own repository would depend on it by URL, and builds `libThirdPartySkill.so`.
//
//   swift build --package-path Tests/Fixtures/ThirdPartySkill
//
// The linker line is the one every Swift plugin needs: a version script that exports only
// `skill_plugin_entry` (the SDK and Swift metadata stay private to this plugin); lld keeps the dynamic
// symbol table down to that one entry.
import PackageDescription

/// This folder, so the version script is found from any working directory.
let here: String = {
    var path = #filePath
    while let last = path.last, last != "/" { path.removeLast() }
    return String(path.dropLast())
}()

/// SwiftPM names a path dependency after its folder: the SkillHost checkout three levels up.
let skillHostPath = "../../.."
let skillHostIdentity: String = {
    var path = here
    for _ in 0..<3 {
        while let last = path.last, last != "/" { path.removeLast() }
        path.removeLast()
    }
    return String(path.split(separator: "/").last ?? "skillhost").lowercased()
}()

let package = Package(
    name: "ThirdPartySkill",
    products: [
        .library(name: "ThirdPartySkill", type: .dynamic, targets: ["ThirdPartySkill"]),
    ],
    dependencies: [
        .package(path: skillHostPath),
    ],
    targets: [
        .target(
            name: "ThirdPartySkill",
            dependencies: [.product(name: "SkillSDK", package: skillHostIdentity)],
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "--version-script=\(here)/skill_exports.map"])]
        ),
    ]
)
