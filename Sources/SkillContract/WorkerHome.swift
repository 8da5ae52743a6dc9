#if canImport(Glibc)
import Glibc
#endif

/// Where a plugin's worker finds the user's home folder. In a worker `HOME` is the plugin's data folder (so
/// libraries that write under `~` write there, inside the sandbox), and the user's home — where paths the
/// user configured with `~/` live — is in ``variable``. The host sets it; plugins read ``userHome``.
public enum WorkerHome {
    /// The variable naming the user's home folder in a worker's environment.
    public static let variable = "SKILLHOST_USER_HOME"

    /// The user's home folder: ``variable`` in a worker, else `HOME` (a plugin run in-process or by its own
    /// tests); nil when neither is set.
    public static var userHome: String? {
        for name in [variable, "HOME"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }

    /// `path` with a leading `~` or `~/` replaced by ``userHome``; other paths unchanged.
    public static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = userHome else { return path }
        return home + path.dropFirst()
    }
}
