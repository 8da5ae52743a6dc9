/// Where the SDK that plugin authors build against is: the Swift package with the `SkillSDK` and `SkillCheck`
/// products, and the folder with the C headers `skill_abi.h` and `skill_json.h`.
///
/// `scripts/install.sh` installs it beside `skillhost` (`<prefix>/share/skillhost/sdk/skillhost-sdk-<ABI>/`,
/// `<prefix>/include/skillhost/`, `<prefix>/lib/pkgconfig/skillhost.pc`), so an installed `skillhost` finds
/// it from its own path, wherever the prefix was copied to. A `skillhost` run from a SkillHost checkout's
/// `.build` uses that checkout (the root package has the same products). `SKILLHOST_SDK` names another one.
public struct SDKLocation: Sendable, Equatable {
    /// How the SDK was found.
    public enum Source: String, Sendable {
        /// `SKILLHOST_SDK` named it.
        case environment
        /// Installed beside `skillhost` (`<prefix>/share/skillhost/sdk/`).
        case installed
        /// The SkillHost checkout whose `.build` holds this `skillhost`.
        case checkout
        /// Named by `skillhost new --sdk PATH`.
        case option
    }

    /// The SwiftPM package folder that has the `SkillSDK` and `SkillCheck` products.
    public var package: String
    /// The folder holding `skill_abi.h` and `skill_json.h`.
    public var include: String
    /// The folder holding `skillhost.pc` (for `PKG_CONFIG_PATH`), when the SDK is an installed one.
    public var pkgConfig: String?
    /// The installed guides (`authoring.md`…), when there are.
    public var documentation: String?
    /// How it was found.
    public var source: Source

    /// The SDK folder's name for this ABI: `skillhost-sdk-1.0`.
    public static let folderName = "skillhost-sdk-" + SkillDefaults.abiVersion
    /// The SDK package's folder below an install prefix.
    public static func installedPackage(prefix: String) -> String { prefix + "/share/skillhost/sdk/" + folderName }

    /// The SDK the `skillhost` at `executable` uses: `SKILLHOST_SDK` when set, else the one installed in the
    /// prefix `executable` is in (`<prefix>/bin/skillhost`), else the checkout whose `.build` holds it.
    /// - Throws: ``HostError`` `notFound` saying where it looked and how to install one.
    public static func find(executable: String?, environment: [String: String]) throws(HostError) -> SDKLocation {
        if let named = environment["SKILLHOST_SDK"], !named.isEmpty {
            return try at(named, source: .environment, naming: "SKILLHOST_SDK")
        }
        var looked: [String] = []
        if let executable {
            let prefix = Posix.directoryName(of: Posix.directoryName(of: executable))
            let package = installedPackage(prefix: prefix)
            if Posix.exists(package + "/Package.swift") {
                var location = try at(package, source: .installed, naming: "the installed SDK")
                if Posix.exists(prefix + "/include/skillhost/skill_abi.h") { location.include = prefix + "/include/skillhost" }
                if Posix.exists(prefix + "/lib/pkgconfig/skillhost.pc") { location.pkgConfig = prefix + "/lib/pkgconfig" }
                if Posix.exists(prefix + "/share/doc/skillhost/authoring.md") { location.documentation = prefix + "/share/doc/skillhost" }
                return location
            }
            looked.append(package)
            if let range = executable.range(of: "/.build/") {
                let root = String(executable[..<range.lowerBound])
                if isSDKPackage(root) {
                    var location = try at(root, source: .checkout, naming: "the checkout")
                    location.documentation = root + "/docs"
                    return location
                }
            }
        }
        let where_ = looked.isEmpty ? "" : " (looked for \(looked.joined(separator: ", ")))"
        throw HostError(
            .notFound,
            "no SkillHost SDK found\(where_): install SkillHost with its scripts/install.sh (it installs the SDK beside skillhost), set SKILLHOST_SDK to an SDK folder, or pass --sdk PATH|URL@VERSION")
    }

    /// The SDK at `folder`: an installed SDK package or a SkillHost checkout.
    /// - Throws: ``HostError`` `notFound` when `folder` has no `Package.swift`, `Sources/SkillSDK` or the
    ///   C headers.
    public static func at(_ folder: String, source: Source, naming what: String = "--sdk") throws(HostError) -> SDKLocation {
        var root = Posix.absolutePath(folder)
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        guard isSDKPackage(root) else {
            throw HostError(
                .notFound,
                "\(root) (\(what)) is not a SkillHost SDK: it has no Package.swift, Sources/SkillSDK or Sources/CSkillABI/include/skill_json.h; give the folder 'skillhost sdk path' prints, or a SkillHost checkout")
        }
        return SDKLocation(package: root, include: root + "/Sources/CSkillABI/include", source: source)
    }

    private static func isSDKPackage(_ root: String) -> Bool {
        Posix.exists(root + "/Package.swift") && Posix.exists(root + "/Sources/SkillSDK")
            && Posix.exists(root + "/Sources/CSkillABI/include/skill_json.h")
    }
}
