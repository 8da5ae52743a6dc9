import ICalendar
import SkillSDK

/// What the calendar and reminders plugins read from a call's context, in one reader both link: the
/// iCalendar file (a config key, else a default name in the plugin's data folder) and the user's zone
/// (`config.timezone`, else the system's). File problems become skill failures that name the line.
public struct CalendarFileSettings {
    /// The file, read and written under its lock.
    public let store: CalendarFileStore
    /// The user's zone: arguments without an offset are read in it and results are shown in it.
    public let zone: SystemZone

    /// Reads the settings of a call.
    /// - Parameters:
    ///   - plugin: the plugin's name in messages ("calendar", "reminders").
    ///   - fileKey: the config key naming the file (`calendar_file`).
    ///   - defaultFileName: the file used when the config names none, inside the plugin's data folder.
    ///   - productID: the PRODID of files this plugin creates.
    /// - Throws: ``SkillError`` when `config.timezone` names no zone or `config.<fileKey>` is not a string.
    public init(
        _ context: SkillContext, plugin: String, fileKey: String, defaultFileName: String,
        productID: String = "-//SkillHost//Calendar 1.0//EN"
    ) throws(SkillError) {
        let configured = context.configuration[fileKey]
        guard configured == nil || configured?.stringValue != nil else {
            throw SkillError.failed(
                message: "config.\(fileKey) of the \(plugin) plugin is not a string",
                remedy: "set it to a file path, e.g. \"~/Calendars/\(defaultFileName)\" (a folder of its own: the sandbox grants that folder), in skill_registry.json")
        }
        store = CalendarFileStore(
            // `~/` is the user's home (WorkerHome), not the worker's HOME (its data folder).
            path: CalendarFileLocation.path(
                configured: configured?.stringValue.map(WorkerHome.expandingTilde), dataDirectory: context.dataDirectory,
                defaultName: defaultFileName),
            productID: productID)
        let zoneName = context.configuration["timezone"]?.stringValue
        guard let zone = CalendarFileLocation.zone(configured: zoneName) else {
            throw SkillError.failed(
                message: "config.timezone \"\(zoneName ?? "")\" of the \(plugin) plugin is not a time zone",
                remedy: "use an IANA name such as Europe/Paris, or remove it to use the system's zone")
        }
        self.zone = zone
    }

    /// The document in the file, with its zones. A file is refused only when nothing in it can be read;
    /// what was read past is in the document's `skipped` (see ``warnings(_:)``).
    public func read() throws(SkillError) -> (ICalendarDocument, ICalZoneCatalog) {
        do {
            let document = try store.read()
            return (document, ICalZoneCatalog(document: document, floating: zone))
        } catch {
            throw Self.failure(error)
        }
    }

    /// The most warnings a result lists; the rest are counted in one last line.
    public static let warningLimit = 20

    /// Warnings as results show them: `<file>: line N: what was skipped and why; how to fix it`, each
    /// once, at most ``warningLimit`` (then one line saying how many more there are).
    /// - Parameter lines: `line N: …` lines, as `ICalendarDocument.occurrences(in:zones:warnings:)` writes them.
    public func warnings(_ lines: [String]) -> [String] {
        var seen = Set<String>()
        let unique = lines.filter { seen.insert($0).inserted }
        var shown = unique.prefix(Self.warningLimit).map { "\(store.path): \($0)" }
        if unique.count > Self.warningLimit {
            shown.append("\(store.path): \(unique.count - Self.warningLimit) more warnings like these")
        }
        return shown
    }

    /// The warnings about the file itself: lines and components that cannot be read (kept as they were
    /// when the file is written), and VTIMEZONEs that cannot be read.
    public func warnings(about document: ICalendarDocument, zones: ICalZoneCatalog) -> [String] {
        warnings((document.skipped + zones.skipped).sorted { $0.line < $1.line }.map { "line \($0.line): \($0.message); \($0.remedy)" })
    }

    /// Runs `change` on the file under its lock, mapping file problems to skill failures.
    public func update<Result>(_ change: (inout ICalendarDocument) throws -> Result) throws -> Result {
        do {
            return try store.update(change)
        } catch let error as CalendarFileError {
            throw Self.failure(error)
        }
    }

    /// A file problem as a skill failure: the file, the line and column, and the remedy.
    public static func failure(_ error: CalendarFileError) -> SkillError {
        SkillError.failed(
            message: error.syntax.map { "\(error.path): line \($0.line):\($0.column): \($0.message)" }
                ?? "\(error.path): \(error.message)",
            remedy: error.syntax?.remedy ?? error.remedy)
    }

    /// A date, or a date and time with an optional UTC offset: "2026-12-01", "2026-12-01T10:00",
    /// "2026-12-01T10:00:00+01:00", "2026-12-01T09:00:00Z" (the skills' parameter pattern).
    public static let dateTimePattern =
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"
}
