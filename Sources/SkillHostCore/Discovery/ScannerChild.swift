import SkillJSON

/// The scanner child's side (`skillhost __scan FILE`): runs in a separate process so a plugin that crashes
/// or hangs while loading cannot take the host down.
public enum ScannerChild {
    /// Checks the file's ELF structure, loads it, checks the descriptor and the manifest, and returns the
    /// outcome. Plugin code runs here: call it only in the scanner child (or in `validate`'s child).
    public static func scan(path: String) -> ScanOutcome {
        do {
            let library = try PluginLibrary.load(path: path)
            let manifest = try validatedManifest(library.manifestBytes, path: library.path)
            return ScanOutcome(status: .ok, manifest: manifest.document)
        } catch let error as HostError {
            return ScanOutcome(status: .invalid, error: error.message)
        } catch let error as ManifestError {
            var outcome = ScanOutcome(
                status: .invalid, error: error.description, problems: error.problems.map { "\(error.file): \($0)" })
            outcome.advice = error.advice.map { "\(error.file): \($0)" }
            return outcome
        } catch {
            return ScanOutcome(status: .invalid, error: "\(path): \(error)")
        }
    }

    private static func validatedManifest(_ bytes: [UInt8], path: String) throws(ManifestError) -> PluginManifest {
        try ManifestValidator.validate(bytes: bytes, file: path)
    }

    /// The whole child: moves stdout out of the plugin's reach (its prints go to stderr), scans, and
    /// writes one JSON line to the real stdout. Returns the exit status (0 when the line was written).
    public static func run(path: String) -> Int32 {
        run(paths: [path])
    }

    /// The exit status of a scanner that could not enter its sandbox (``ScannerSandbox``); it loaded nothing
    /// and said why on stderr.
    public static let sandboxFailureStatus: Int32 = 5

    /// The whole child for a batch: scans the files one after another and writes one JSON line per file,
    /// in order, as soon as that file is done (the outcome plus `"path"`, the absolute path), so the host
    /// knows which file a crash or a hang belongs to: the first one without a line. Loads nothing when
    /// ``ScannerSandbox/failure`` says the sandbox was not entered.
    /// Returns the exit status (0 when every line was written).
    public static func run(paths: [String]) -> Int32 {
        if let failure = ScannerSandbox.failure {
            Posix.writeAll(2, Array((failure + "\n").utf8))
            return sandboxFailureStatus
        }
        let output = Posix.redirectStandardOutputToStandardError()
        for path in paths {
            let path = Posix.absolutePath(path)
            guard case .object(var object) = scan(path: path).json else { return 1 }
            object["path"] = .string(path)
            let line = JSONValue.object(object).serialized() + "\n"
            guard Posix.writeAll(output, Array(line.utf8)) else { return 1 }
        }
        return 0
    }
}
