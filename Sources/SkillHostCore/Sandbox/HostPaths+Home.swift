#if canImport(Glibc)
import Glibc
#endif

extension HostPaths {
    /// `$HOME` of this process, nil when unset or empty (then `home` capabilities grant nothing).
    public static var homeDirectory: String? {
        guard let value = getenv("HOME").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
