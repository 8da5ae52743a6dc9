import Glibc
import SkillPosix

/// The key that seals approval questions (``MCPRequestState``): 32 random bytes in
/// `mcp-request-state.key` beside the registry (mode 0600), made on first use under a lock, so every
/// replica that reads the same registry folder answers every other's questions.
public enum MCPRequestStateKey {
    /// The key file's name.
    public static let fileName = "mcp-request-state.key"

    /// The key beside the registry at `registryPath`, made when missing.
    /// - Throws: one line when the file can be neither read nor made (a read-only folder without the file).
    package static func load(besideRegistry registryPath: String) throws(Posix.Failure) -> [UInt8] {
        let folder = Posix.directoryName(of: registryPath)
        let path = folder + "/" + fileName
        if let key = read(path) { return key }
        try Posix.createDirectories(folder)
        let lock = try Posix.openLockedExclusively(path + ".lock", mode: 0o600)
        defer { Posix.unlock(lock) }
        if let key = read(path) { return key }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Posix.replaceFile(path, with: key, mode: 0o600)
        return key
    }

    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let bytes = try? Posix.readAll(descriptor, path: path, limit: 4096), bytes.count >= 32 else { return nil }
        return bytes
    }
}
