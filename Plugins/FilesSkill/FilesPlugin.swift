// FilesSkill: read-only access to the user's files below one configured root folder.
//
// Provides:
//   files.list    the entries of a folder below the root (optionally recursive)
//   files.read    the text of one file: size cap, byte offset, encoding detection, binary files refused
//   files.search  files below a folder by name glob and/or content (substring or regular expression)
//
// The root is the registry's `config.root` for this plugin (an absolute path, or `~/…` for the home folder);
// without one it is `~/Documents`. Nothing outside the root is ever read: absolute paths, `..` and symlinks
// that lead out of the root are refused with a message that says so.
//
// Built as libFilesSkill.so; exports only `skill_plugin_entry` (see Plugins/skill_exports.map).
import SkillSDK

/// The plugin's one exported symbol.
@_cdecl("skill_plugin_entry")
public func skillPluginEntry(_ major: UInt32, _ minor: UInt32, _ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    filesPlugin.export(major, minor, host)
}

/// The files plugin: its id, version and skills.
let filesPlugin = SkillPlugin(
    id: "files", name: "Files", version: "1.0.0",
    description: """
        Read-only access to the user's files below one configured folder (registry config "root", default \
        ~/Documents): list folders, read text files, search by name or content. Never writes.
        """,
    skills: [ListFiles(), ReadFile(), SearchFiles()])
    .declaring(SkillCapabilities.none.configuredPath("root", .read).home("Documents", .read))
