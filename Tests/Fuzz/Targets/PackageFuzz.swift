import SkillHostCore

/// A plugin package as `install` reads it before any trust decision: the zip (limits, paths, CRCs,
/// inflate), package.json, the listed digests, each library's ELF header (``PluginPackage``). Inputs that
/// start with "untrusted comment:" are minisign text instead: read as a signature and as a public key.
func fuzzPackage(_ input: [UInt8]) {
    if input.starts(with: Array("untrusted comment:".utf8)) {
        let text = String(decoding: input, as: UTF8.self)
        _ = try? MinisignSignature(parsing: text, source: "fuzz.minisig")
        _ = try? MinisignPublicKey(parsing: text, source: "fuzz.pub")
        return
    }
    guard let package = try? PluginPackage(data: input, name: "fuzz.skillpkg") else { return }
    _ = try? package.hostLibrary()
}
