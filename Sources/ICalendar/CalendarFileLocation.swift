import Foundation

/// Where a plugin's calendar file is: the path in its registry `config` (a leading `~/` is the home
/// folder; a relative path is below the data folder), else `<data folder>/<default name>`.
public enum CalendarFileLocation {
    /// The file's path.
    /// - Parameters:
    ///   - configured: the config value (e.g. `config.calendar_file`), nil or empty when unset.
    ///   - dataDirectory: the plugin's data folder.
    ///   - defaultName: the file name used when nothing is configured, e.g. `calendar.ics`.
    public static func path(configured: String?, dataDirectory: String, defaultName: String) -> String {
        guard let configured, !configured.isEmpty else { return join(dataDirectory, defaultName) }
        if configured == "~" || configured.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return join(home, String(configured.dropFirst(2)))
        }
        return configured.hasPrefix("/") ? configured : join(dataDirectory, configured)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The user's zone: the configured IANA name, else the process's zone (`TZ`, `/etc/localtime`).
    /// - Returns: nil when `configured` names no zone.
    public static func zone(configured: String?) -> SystemZone? {
        guard let configured, !configured.isEmpty else { return SystemZone(timeZone: .current) }
        return SystemZone(configured)
    }
}
