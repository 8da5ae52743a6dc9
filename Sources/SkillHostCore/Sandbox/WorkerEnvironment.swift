import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// The environment of a process that runs plugin code (a worker, the scanner): an allow-list, never the
/// host's. The host's secrets (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, every `*_TOKEN`) stay in the host; a
/// plugin gets a variable only when the user granted it (`skillhost grant ID env:NAME`).
///
/// What passes: the locale (`LANG`, `LANGUAGE`, `LC_*`), the zone (`TZ`, `TZDIR`), `PATH` (for plugins that
/// may start processes), `LD_LIBRARY_PATH` (what the runtime may need to load) and `SKILLHOST_DEBUG` (whether
/// plugins' debug log lines are written). What is set: `HOME` and
/// `TMPDIR`, the plugin's data folder and a folder in it (libraries that write under `~` write there), and
/// ``userHomeVariable``, the user's home folder, where plugins expand `~/` in paths the user configured.
public enum WorkerEnvironment {
    /// Variables passed through from the host's environment by name.
    static let passedNames: Set<String> = ["LANG", "LANGUAGE", "TZ", "TZDIR", "PATH", "LD_LIBRARY_PATH", "SKILLHOST_DEBUG"]

    /// The variable naming the user's home folder inside a worker, whose `HOME` is its data folder.
    public static var userHomeVariable: String { WorkerHome.variable }

    /// Whether a variable of the host's environment passes to plugin code.
    static func passes(_ name: Substring) -> Bool {
        passedNames.contains(String(name)) || name.hasPrefix("LC_")
    }

    /// The allowed part of this process's environment, plus the user's home folder (``userHomeVariable``):
    /// what every process that runs plugin code starts with.
    public static func base(home: String? = HostPaths.homeDirectory) -> [String] {
        var entries: [String] = []
        var index = 0
        let ownHome = userHomeVariable + "="
        while let entry = environ[index] {
            let text = String(cString: entry)
            // The name ends at the first '=' byte (found without walking the text by `Character`, ~5,000
            // instructions an entry that `skillhost call` paid twice for every variable).
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")), passes(text[..<equals]), !text.hasPrefix(ownHome) {
                entries.append(text)
            }
            index += 1
        }
        if let home { entries.append("\(userHomeVariable)=\(home)") }
        return entries
    }

    /// What a worker of one plugin gets beyond ``base(home:)``: `HOME` and `TMPDIR` in its data folder, and
    /// the variables the user granted it (their values from this process's environment; a granted name that
    /// is not set is left out).
    public static func plugin(dataDirectory: String, granted names: [String]) -> [String] {
        var entries = ["HOME=\(dataDirectory)", "TMPDIR=\(temporaryFolder(dataDirectory: dataDirectory))"]
        for name in names {
            guard let value = getenv(name) else { continue }
            entries.append("\(name)=\(String(cString: value))")
        }
        return entries
    }

    /// The worker's `TMPDIR`: a folder in its data folder (the host creates it with the data folder).
    public static func temporaryFolder(dataDirectory: String) -> String { dataDirectory + "/tmp" }

    /// `entries` laid over `base`: a later entry replaces an earlier one of the same name.
    static func merged(_ base: [String], _ entries: [String]) -> [String] {
        let names = Set(entries.map { $0.prefix { $0 != "=" } })
        return base.filter { !names.contains($0.prefix { $0 != "=" }) } + entries
    }

    /// In a child forked from the host (a spare worker): overwrites the environment it inherited — the
    /// strings themselves, which `/proc/self/environ` and the process's memory would still show — and keeps
    /// only ``base(home:)``. Call before anything else in the child.
    static func replaceInheritedEnvironment() {
        let kept = base()
        skh_scrub_inherited_environment()
        for entry in kept { putenv(strdup(entry)) }
    }
}
