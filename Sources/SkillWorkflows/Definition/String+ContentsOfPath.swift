import SkillHostCore
#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// The UTF-8 text of the file at `path`, at most 4 MiB.
    init?(contentsOfPath path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let bytes = try? Posix.readAll(descriptor, path: path, limit: 4 << 20), bytes.count <= 4 << 20 else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
