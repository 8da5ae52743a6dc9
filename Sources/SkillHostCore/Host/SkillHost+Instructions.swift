import SkillJSON

extension SkillHost {
    /// The usable or disabled instruction skill `id` read completely: frontmatter, body, bundled files with
    /// SHA-256. - Throws: `notFound` (no such skill), `invalidPlugin` (the folder is invalid; the message
    /// says why), `io`.
    public func instructionSkill(_ id: String) throws(HostError) -> InstructionSkill {
        let record = try instructionRecord(id)
        let file = InstructionSkillValidator.skillFile(in: record.folder) ?? record.folder + "/SKILL.md"
        let document: SkillDocument
        do { document = try InstructionSkillValidator.read(file) } catch {
            throw HostError(.invalidPlugin, "\(record.folder): \(error.message)", pluginID: record.id)
        }
        let walk = SkillFolderWalk(folder: record.folder)
        var files: [BundledFile] = []
        for path in walk.files {
            let full = record.folder + "/" + path
            let status = try Posix.status(ofPath: full)
            files.append(BundledFile(path: path, sha256: try FileDigest.sha256(ofFile: full), size: status.size))
        }
        return InstructionSkill(
            name: record.id, frontmatter: .object(document.frontmatter), body: document.body, folder: record.folder,
            files: files)
    }

    /// Up to `limit` bytes from `offset` of the file `path` (relative) of instruction skill `skill`.
    /// The path must stay inside the skill folder: absolute paths, `..` and links that leave it are refused
    /// (`denied`); so are files that are not regular (FIFOs, devices).
    public func readInstructionFile(skill: String, path: String, offset: Int = 0, limit: Int = 64 << 10)
        throws(HostError) -> (bytes: [UInt8], size: Int64)
    {
        let record = try instructionRecord(skill)
        let full = try InstructionFilePath.resolve(path, inFolder: record.folder, skill: record.id)
        let status = try Posix.status(ofPath: full)
        guard status.isRegularFile else {
            throw HostError(.denied, "\(path) in skill \(record.id) is not a regular file", pluginID: record.id)
        }
        let prefix = try Posix.readPrefix(ofFile: full, count: max(0, offset) + max(0, limit))
        let start = min(max(0, offset), prefix.count)
        return (Array(prefix[start...]), status.size)
    }

    /// Checks a skill folder as `agentskills validate` does (same problems, same wording).
    public func validateSkillFolder(path: String) -> [String] {
        InstructionSkillValidator.validate(folder: Posix.absolutePath(path))
    }

    /// The catalog record of instruction skill `id` (normalized), usable or disabled.
    func instructionRecord(_ id: String) throws(HostError) -> InstructionSkillRecord {
        let catalog = try catalog()
        guard let record = catalog.instruction(id) else {
            throw HostError(.notFound, "no instruction skill \"\(id)\" in \(paths.skills); \(catalog.didYouMean(id, among: [.instruction]))run 'skillhost list' to see the ids")
        }
        guard record.status != .invalid else {
            throw HostError(.invalidPlugin, "instruction skill \(record.id) is invalid: \(record.error ?? "")", pluginID: record.id)
        }
        return record
    }
}

/// Resolves a path a model or user names inside a skill folder, refusing anything that leaves it.
public enum InstructionFilePath {
    /// The absolute path of `relative` inside `folder`. - Throws: `denied` for absolute paths, `..`
    /// segments and links that resolve outside the folder; `notFound` when nothing is there.
    public static func resolve(_ relative: String, inFolder folder: String, skill: String) throws(HostError) -> String {
        guard !relative.isEmpty, !relative.hasPrefix("/") else {
            throw HostError(.denied, "path \"\(relative)\" must be relative to the skill folder of \(skill)", pluginID: skill)
        }
        let segments = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains("..") else {
            throw HostError(.denied, "path \"\(relative)\" uses '..'; name a file inside the skill folder of \(skill)", pluginID: skill)
        }
        let full = folder + "/" + segments.joined(separator: "/")
        guard let root = Posix.resolvedPath(folder) else {
            throw HostError(.notFound, "skill folder \(folder) is missing", pluginID: skill)
        }
        guard let target = Posix.resolvedPath(full) else {
            throw HostError(.notFound, "no file \"\(relative)\" in skill \(skill); see its file list", pluginID: skill)
        }
        guard target.hasPrefix(root + "/") else {
            throw HostError(.denied, "path \"\(relative)\" leads outside the skill folder of \(skill)", pluginID: skill)
        }
        return target
    }
}
