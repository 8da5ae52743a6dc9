import Foundation
import SkillJSON

extension SkillHost {
    /// Installs an instruction skill from a folder, a `.zip` or a `.skill` archive into the skills folder:
    /// copies it into a hidden temporary folder there, validates it (the same checks as `validate`), then
    /// renames it into place. An invalid skill is refused and nothing is left behind.
    /// - Throws: `invalidPlugin` (invalid skill or archive; every problem in the message), `notFound`,
    ///   `io`, `registry` (an id already used by a plugin or another skill).
    @discardableResult
    public func addSkill(from source: String) throws(HostError) -> InstructionSkillRecord {
        let source = Posix.absolutePath(source)
        let status = try Posix.status(ofPath: source)
        try Posix.makeDirectories(paths.skills)
        let lock = try Posix.lockExclusively(paths.skills + "/.skillhost.lock")
        defer { Posix.unlock(lock) }
        let staging = paths.skills + "/.adding-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let name: String
        if status.isDirectory {
            name = InstructionSkillValidator.folderName(of: source)
            try copyFolder(source, to: staging + "/" + name)
        } else {
            name = try unpack(archive: source, into: staging)
        }
        let folder = staging + "/" + name
        let problems = InstructionSkillValidator.validate(folder: folder) + SkillFolderWalk(folder: folder).problems
        guard problems.isEmpty else {
            throw HostError(.invalidPlugin, "\(source): not installed: " + problems.joined(separator: "; ").replacingOccurrences(of: "\n", with: " "))
        }
        let destination = paths.skills + "/" + name
        let catalog = try catalog()
        let id = InstructionSkillValidator.normalizedName(name)
        if Posix.exists(destination) || catalog.instruction(id) != nil {
            throw HostError(.registry, "an instruction skill \"\(id)\" is already installed at \(destination); run 'skillhost remove \(id)' first")
        }
        if let plugin = catalog.plugin(id), plugin.manifest != nil {
            throw HostError(.registry, "id \"\(id)\" is already used by the plugin \(plugin.path); rename the skill (name and folder)")
        }
        try Posix.hostError { () throws(Posix.Failure) in try Posix.rename(folder, to: destination) }
        guard let record = try self.catalog().instruction(id) else {
            throw HostError(.io, "\(destination) was installed but is not listed")
        }
        return record
    }

    /// Removes the instruction skill `id` (its folder in the skills folder). - Throws: `notFound`, `io`.
    @discardableResult
    public func removeSkill(_ id: String) throws(HostError) -> InstructionSkillRecord {
        let catalog = try catalog()
        guard let record = catalog.instruction(id) else {
            throw HostError(.notFound, "no instruction skill \"\(Identifier.normalize(id))\" in \(paths.skills); \(catalog.didYouMean(id, among: [.instruction]))run 'skillhost list' to see the ids")
        }
        guard record.scope == .user else {
            throw HostError(.denied, "instruction skill \(record.id) is a project's (\(record.folder)); skillhost removes only skills it added: delete it from the project, or stop loading the project's skills with 'skillhost trust --folder \(paths.project ?? ".") --revoke'", pluginID: record.id)
        }
        let lock = try Posix.lockExclusively(paths.skills + "/.skillhost.lock")
        defer { Posix.unlock(lock) }
        let trash = paths.skills + "/.removing-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Posix.hostError { () throws(Posix.Failure) in try Posix.rename(record.folder, to: trash) }
        do { try FileManager.default.removeItem(atPath: trash) } catch {
            throw HostError(.io, "remove \(trash): \(error.localizedDescription); delete it by hand")
        }
        return record
    }

    /// Copies the regular files of a skill folder (links to files inside it as files) into `destination`.
    private func copyFolder(_ source: String, to destination: String) throws(HostError) {
        let walk = SkillFolderWalk(folder: source)
        if !walk.problems.isEmpty {
            throw HostError(.invalidPlugin, "\(source): not installed: " + walk.problems.joined(separator: "; "))
        }
        try Posix.makeDirectories(destination)
        for path in walk.files {
            let bytes = try Posix.readFile(atPath: source + "/" + path)
            let target = destination + "/" + path
            try Posix.makeDirectories(Posix.directoryName(of: target))
            try Posix.writeFileAtomically(target, bytes: bytes)
        }
    }

    /// Unpacks an archive into `staging/<name>`; returns the name: the archive's single top folder, or the
    /// archive's file name without `.zip` / `.skill` when `SKILL.md` is at its root.
    private func unpack(archive: String, into staging: String) throws(HostError) -> String {
        let data = try Posix.readFile(atPath: archive, limit: SkillArchive.limits.maximumTotalSize)
        let fileName = InstructionSkillValidator.folderName(of: archive)
        let contents = try SkillArchive.read(data: data, name: fileName)
        var name = fileName
        for suffix in [".zip", ".skill"] where name.lowercased().hasSuffix(suffix) { name.removeLast(suffix.count) }
        let tops = Set(contents.entries.map { String($0.path.split(separator: "/")[0]) })
        var strip = 0
        if tops.count == 1, let top = tops.first, contents.entries.allSatisfy({ $0.path.contains("/") }) {
            name = top
            strip = top.count + 1
        }
        guard !name.isEmpty, !name.hasPrefix(".") else {
            throw HostError(.invalidPlugin, "\(archive): cannot tell the skill's folder name; name the archive after the skill")
        }
        for entry in contents.entries {
            let target = staging + "/" + name + "/" + entry.path.dropFirst(strip)
            try Posix.makeDirectories(Posix.directoryName(of: target))
            try Posix.writeFileAtomically(target, bytes: entry.bytes)
        }
        try Posix.makeDirectories(staging + "/" + name)
        return name
    }
}
