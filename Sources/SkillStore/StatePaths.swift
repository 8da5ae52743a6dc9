/// Where the history database lives: `--state DIR`, else `SKILLHOST_STATE`, else `$XDG_STATE_HOME/skillhost`,
/// else `~/.local/state/skillhost` (file ``HistoryStore/fileName``).
public enum StatePaths {
    /// The state folder for a `--state` flag value and the environment.
    public static func directory(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment["SKILLHOST_STATE"], !value.isEmpty { return value }
        if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") { return value + "/skillhost" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.local/state/skillhost"
    }
}
