import Foundation
import SkillHostCore
import SkillJSON
import SkillStore

/// Opens the history database for the commands that use it (`chat`, `history`, `trace`, `inspect`,
/// `debug`): `--state DIR` / `SKILLHOST_STATE` / `$XDG_STATE_HOME/skillhost`, then the retention policy
/// applied on start (flags, else the registry's `history` object, else 90 days and 1000 sessions).
enum HistoryOptions {
    /// The options these commands accept.
    static let options: Set<String> = ["--state", "--keep-days", "--keep-sessions"]

    /// The state folder for these arguments.
    static func directory(_ parsed: ParsedArguments) -> String {
        StatePaths.directory(flag: parsed.options["--state"], environment: Posix.environment())
    }

    /// Opens the database and applies the retention policy.
    /// - Throws: ``StoreError`` (corrupt, newer version, cannot open) — the file is left as it was.
    static func open(_ parsed: ParsedArguments, registry: Registry?) throws -> HistoryStore {
        let policy = try retention(parsed, registry: registry)
        let store = try HistoryStore(directory: directory(parsed))
        for problem in store.finishLogProblems { ErrorReporter.printError("warning: " + problem) }
        try store.applyRetention(policy)
        return store
    }

    /// The retention policy: `--keep-days` / `--keep-sessions`, else the registry's
    /// `{"history": {"keep_days": N, "keep_sessions": N}}`, else ``RetentionPolicy/standard``; 0 keeps all.
    static func retention(_ parsed: ParsedArguments, registry: Registry?) throws -> RetentionPolicy {
        let settings = registry?.document["history"]?.objectValue
        func limit(_ flag: String, _ key: String, _ fallback: Int?) throws -> Int? {
            if let text = parsed.options[flag] {
                guard let value = Int(text), value >= 0 else {
                    throw UsageError("\(flag) needs a whole number of 0 or more (0 keeps everything), not '\(text)'")
                }
                return value == 0 ? nil : value
            }
            if let value = settings?[key] {
                guard let number = value.intValue, number >= 0 else {
                    throw HostError(
                        .registry,
                        "\(registry?.file ?? "registry"): history.\(key) must be a whole number of 0 or more (0 keeps everything), not \(value.serialized())")
                }
                return number == 0 ? nil : Int(number)
            }
            return fallback
        }
        return RetentionPolicy(
            days: try limit("--keep-days", "keep_days", RetentionPolicy.standard.days),
            count: try limit("--keep-sessions", "keep_sessions", RetentionPolicy.standard.count))
    }

    /// The registry if it can be read (retention falls back to the defaults otherwise; commands that need
    /// the registry report its error themselves).
    static func registry(_ parsed: ParsedArguments) -> Registry? {
        try? RegistryStore(path: HostOptions.paths(parsed).registry).read()
    }
}
