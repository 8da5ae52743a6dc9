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

    /// Whether debug lines are shown (environment `SKILLHOST_DEBUG` set to anything but "" or "0").
    public static let showsDebug: Bool = {
        guard let value = getenv("SKILLHOST_DEBUG") else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }()

    /// Writes one line for `label` to stderr (debug lines only when ``showsDebug``); newlines inside
    /// `text` become spaces.
    public static func write(label: String, level: Int32, text: String) {
        if level <= 0 && !showsDebug { return }
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        Posix.writeAll(2, Array("[plugin \(label)] \(levelName(level)): \(flat)\n".utf8))
    }
}
