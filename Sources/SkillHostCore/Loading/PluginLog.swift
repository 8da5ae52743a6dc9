import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Plugin log lines (`log` of the ABI): `[plugin LABEL] LEVEL: text`, one line each, sent through a
/// ``DiagnosticSink`` (the library never writes to a descriptor itself). A call's lines go to the sink its
/// executor was given (the host's); lines a plugin logs outside a call, and the lines of a worker or scanner
/// process, go to ``destination``, which the process's owner sets (the CLI: its stderr, which the host
/// reads for its workers).
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

    private static let sink = Mutex(DiagnosticSink.discard)

    /// Where lines go that no call's sink takes (nothing, until the process's owner sets it).
    public static var destination: DiagnosticSink {
        get { sink.withLock { $0 } }
        set { sink.withLock { $0 = newValue } }
    }

    /// Sends one line for `label` to ``destination``.
    public static func write(label: String, level: Int32, text: String) {
        destination.pluginLog(label: label, level: level, text: text)
    }
}

extension DiagnosticSink {
    /// Sends a plugin's log line as `[plugin LABEL] LEVEL: text` (newlines inside `text` become spaces):
    /// warnings and errors as warnings, the rest as notices, debug lines only when
    /// ``PluginLog/showsDebug``.
    public func pluginLog(label: String, level: Int32, text: String) {
        if level <= 0 && !PluginLog.showsDebug { return }
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        emit(level >= 2 ? .warning : .notice, "[plugin \(label)] \(PluginLog.levelName(level)): \(flat)")
    }
}
