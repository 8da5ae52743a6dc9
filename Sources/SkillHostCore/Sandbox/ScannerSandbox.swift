import CSandbox
#if canImport(Glibc)
import Glibc
#endif

/// The scanner child's sandbox (`skillhost __scan FILE…`): loading a plugin runs its constructors and entry
/// point, so the process that reads manifests is confined before the first file is opened — with less than any
/// worker gets: read and execute of the plugin files, the system's libraries and the runtime; no home, no data
/// folder, no file it could write at all (a file size limit of 0 besides Landlock), no network, no processes,
/// no terminal, no capabilities, none of the host's environment. `list`, `validate`, `install`, `inspect`,
/// `rescan` and the MCP server's catalog all scan through it.
public enum ScannerSandbox {
    /// The word that passes the host's choice of namespaces (``KernelSandbox/namespacesWanted``) to the child,
    /// whose environment does not carry it.
    static let namespacesFlag = "--sb-ns"

    /// The words before the files on the child's command line.
    static func words(namespaces: Bool) -> [String] { [namespacesFlag, namespaces ? "1" : "0"] }

    /// The files among the words after `__scan`, and whether to try namespaces.
    public static func parse(_ words: [String]) -> (files: [String], namespaces: Bool) {
        guard words.count >= 2, words[0] == namespacesFlag else { return (words, KernelSandbox.namespacesWanted) }
        return (Array(words.dropFirst(2)), words[1] == "1")
    }

    /// Why the scanner must not load anything; nil when it entered its sandbox (or was not asked to).
    nonisolated(unsafe) public private(set) static var failure: String?

    /// Enters the sandbox for the files named by `words` (the words after `__scan`). Call first thing in the
    /// process, while it has one thread.
    public static func enterEarly(words: [String]) {
        _ = skh_die_with_parent()
        let (files, namespaces) = parse(words)
        let policy = SandboxPolicy(mode: .automatic, rules: [], network: .none, processes: false, namespaces: namespaces)
        if case .failure(let entered) = SandboxEntry.enter(policy, executables: files.map(Posix.absolutePath)) {
            failure = entered.message
            return
        }
        // Nothing to write: a write to a file fails with EFBIG (without Landlock too), and the signal is ignored.
        signal(SIGXFSZ, SIG_IGN)
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &none)
        do {
            try ResourceLimits(addressSpaceMB: ResourceLimits.defaults.addressSpaceMB, openFiles: ResourceLimits.defaults.openFiles).apply()
        } catch {
            failure = error.message
        }
    }
}
