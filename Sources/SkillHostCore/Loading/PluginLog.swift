#if canImport(Glibc)
import Glibc
#endif

/// Writes plugin log lines to stderr as `[plugin LABEL] LEVEL: text`, one line each.
public enum PluginLog {
    /// The level's name for `SKILL_LOG_*` values.
    public static func levelName(_ level: Int32) -> String {
        switch level {
        case 0: return "debug"
        case 1: return "info"
        case 2: return "warning"
        case 3: return "error"
        default: return "level \(level)"
        }
    }

    /// Writes one line for `label` to stderr; newlines inside `text` become spaces.
    public static func write(label: String, level: Int32, text: String) {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        Posix.writeAll(2, Array("[plugin \(label)] \(levelName(level)): \(flat)\n".utf8))
    }
}
