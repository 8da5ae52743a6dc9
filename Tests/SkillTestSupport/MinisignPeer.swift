import Foundation

/// The real `minisign` (Debian's package, installed by scripts/ensure-deps.sh): the peer SkillHost's package
/// signatures and keys must agree with.
public enum MinisignPeer {
    /// The `minisign` program.
    public static func path() throws -> String {
        for candidate in ["/usr/bin/minisign", "/usr/local/bin/minisign"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw TestSetupError("minisign is not installed: run scripts/ensure-deps.sh (Debian package minisign)")
    }

    /// Runs `minisign` with `arguments` (and `stdin`, e.g. a password twice for `-G`).
    public static func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try TestProcess.run(try path(), arguments, stdin: stdin)
    }

    /// Makes a key pair without a password (`minisign -G -W`) in `folder`; returns (secret, public) paths.
    public static func generateKey(in folder: String, name: String = "minisign") throws -> (secret: String, public: String) {
        let secret = folder + "/\(name).key"
        let publicKey = folder + "/\(name).pub"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try run(["-G", "-W", "-f", "-p", publicKey, "-s", secret])
        guard result.status == 0 else { throw TestSetupError("minisign -G failed: \(result.stderr)") }
        return (secret, publicKey)
    }
}
