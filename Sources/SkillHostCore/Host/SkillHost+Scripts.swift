import SkillJSON

// Running instruction skills' bundled scripts (issue #30): which enabled skills have scripts, and one run,
// confined (SkillScriptRunner), on a thread of its own so the wait never holds a concurrency thread.
extension SkillHost {
    /// The enabled instruction skills that bundle scripts (a `scripts/` folder), by id.
    public func instructionSkillsWithScripts() throws(HostError) -> [InstructionSkillRecord] {
        try currentCatalog().enabledInstructions.filter { (try? Posix.status(ofPath: $0.folder + "/scripts"))?.isDirectory == true }
    }

    /// Runs the script at `path` of the enabled instruction skill `skill` with `arguments` (a list, never
    /// through a shell) and `input` on its stdin, in `workspace`, confined by `runner` (its limits; the host's
    /// executable finds `skillhost-sandbox`), with what the user granted the skill in the registry.
    /// - Throws: ``HostError``: `notFound`/`disabled` for the skill, `invalidArguments` for a path outside its
    ///   folder or a script no interpreter here runs, `denied` when the sandbox cannot be entered.
    public nonisolated(nonsending) func runInstructionScript(
        skill: String, path: String, arguments: [String], input: String?, workspace: ScriptWorkspace,
        runner: SkillScriptRunner? = nil
    ) async throws(HostError) -> ScriptRun {
        let record = try instructionRecord(skill)
        guard record.enabled, record.status != .disabled else {
            throw HostError(.disabled, "instruction skill \(record.id) is disabled; run 'skillhost enable \(record.id)'", skillID: record.id)
        }
        let script = try SkillScript.resolve(skill: record.id, folder: record.folder, path: path)
        let runner = runner ?? SkillScriptRunner(hostExecutable: helperExecutable)
        let folder = record.folder
        // What the user granted the skill (`skillhost grant SKILL network:tcp:443`, `home:Documents:read`, …).
        let grants = SandboxPolicy.effectiveCapabilities(declared: .minimal, settings: try registryStore.read().pluginSettings(record.id))
        let outcome = await BlockingThread.runDetached { () -> Result<ScriptRun, HostError> in
            do throws(HostError) {
                return .success(try runner.run(script, arguments: arguments, input: input, workspace: workspace, skillFolder: folder, grants: grants))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
