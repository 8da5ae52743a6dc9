import SkillJSON

/// The signature an install of a signed package keeps beside the plugin file: `<name>.package.json` (the
/// package's signed list of files and digests) and `<name>.package.json.minisig` (the signature), so the
/// publisher is checked again at every catalog build, against the keys trusted then, and the policy's
/// `publisher` rules and `allow_publishers` rely on a signature rather than on what the user's registry
/// says. `minisign -Vm hello.package.json -p THEIR.pub` checks the same files by hand.
public enum InstalledSignature {
    /// What the check found for one plugin file.
    public struct Status: Sendable, Equatable {
        /// The id of the key that signed (nil when the signature file could not be read).
        public var keyID: String?
        /// The trusted publisher whose signature verified and covers the file as it is; nil otherwise.
        public var publisher: TrustedPublisher?
        /// Why it does not verify, one line; nil when it does.
        public var problem: String?

        /// The key id of a signature that verified: what the policy's publisher rules compare.
        public var verifiedKeyID: String? { problem == nil ? publisher?.key.id : nil }

        /// "Acme (key 6B5B1E26E20DA92E), signature verified" or what is wrong.
        public var label: String {
            if let publisher, problem == nil { return "\(publisher.label), signature verified" }
            return "key \(keyID ?? "?") (\(problem ?? "not verified"))"
        }
    }

    /// The two files kept beside `pluginFile` (`x.so` → `x.package.json`, `x.package.json.minisig`).
    public static func paths(of pluginFile: String) -> [String] {
        let base = pluginFile.hasSuffix(".so") ? String(pluginFile.dropLast(3)) : pluginFile
        return [base + ".package.json", base + ".package.json.minisig"]
    }

    /// Checks the signature kept beside the plugin `pluginID` at `pluginFile`; nil when there is none.
    /// `digest` gives the file's SHA-256 (from the shared digest cache).
    static func check(
        pluginFile: String, pluginID: String, keys: [TrustedPublisher], digest: (String) -> String?
    ) -> Status? {
        let files = paths(of: pluginFile)
        guard Posix.exists(files[0]) else { return nil }
        guard let index = try? Posix.readFile(atPath: files[0], limit: 1 << 20),
            let text = try? Posix.readFile(atPath: files[1], limit: 64 << 10),
            let signature = try? MinisignSignature(parsing: String(decoding: text, as: UTF8.self), source: files[1])
        else {
            return Status(keyID: nil, publisher: nil, problem: "\(files[1]) is missing or unreadable; reinstall the package")
        }
        var status = Status(keyID: signature.keyID, publisher: nil, problem: nil)
        switch PackageSignature.check(index, signature: signature, keys: keys) {
        case .verified(let publisher):
            status.publisher = publisher
        case .unsigned:
            status.problem = "no signature"
        case .unknownKey:
            status.problem = "a key you no longer trust; 'skillhost keys trust THEIR.pub' to trust it again"
            return status
        case .invalid(let publisher, let reason):
            status.publisher = publisher
            status.problem = reason
            return status
        }
        let listed = PluginPackage.libraryPath(ELFCheck.architecture(ofMachine: ELFCheck.hostMachine) ?? "?", pluginID: pluginID)
        guard let document = try? JSONValue(parsing: index), document["plugin"]?.stringValue == pluginID,
            let signed = document["files"]?[listed]?["sha256"]?.stringValue
        else {
            status.problem = "the signed package.json does not list \(listed) of plugin \(pluginID)"
            return status
        }
        guard let actual = digest(pluginFile), actual == signed else {
            status.problem = "\(pluginFile) is not the file that was signed (signed sha256 \(signed)); reinstall the package"
            return status
        }
        return status
    }
}
