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
        let output = Posix.redirectStandardOutputToStandardError()
        let outcome = scan(path: Posix.absolutePath(path))
        let line = outcome.json.serialized() + "\n"
        return Posix.writeAll(output, Array(line.utf8)) ? 0 : 1
    }
}
