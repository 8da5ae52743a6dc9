import SkillSDK

/// `files.list`: the entries of one folder below the root.
struct ListFiles: Skill {
    struct Arguments: Decodable {
        var path: String?
        var recursive: Bool?
        var includeHidden: Bool?
        var maxEntries: Int?

        enum CodingKeys: String, CodingKey {
            case path, recursive
            case includeHidden = "include_hidden"
            case maxEntries = "max_entries"
        }
    }

    struct Output: Encodable {
        var root: String
        var path: String
        var count: Int
        var truncated: Bool
        var entries: [FileEntry]
        /// Sub-folders that could not be read (with the reason); absent when there were none.
        var unreadable: [String]?
    }

    let name = "list"
    let title = "List files"
    let description = """
        Lists the files and folders in a folder of the user's files (read-only, below the configured root \
        folder): name, path, type, size and modification time; recursive on request. Use it to see what is \
        there before files.read. Not for finding a file by name or content across folders (use files.search), \
        not for reading a file (use files.read), and not for calendar or reminder items (use calendar.* and \
        reminders.*).
        """
    let parameters = ParameterSchema.object(
        [
            "path": .string("Folder relative to the root; the root itself when absent", maxLength: 4096),
            "recursive": .boolean("Also list the contents of sub-folders (default false)"),
            "include_hidden": .boolean("Include names starting with a dot (default false)"),
            "max_entries": .integer("The most entries to return (default 200)", minimum: 1, maximum: 5000),
        ], required: [])
    let timeout = 10.0
    let summary: String? = "{count|entry|entries} in {path}."
    let examples = [
        "list the files in {path}", "what is in the folder {path}", "show my files",
        "list my documents", "which files are in {path}", "list everything in {path} recursively",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let root = try FilesRoot(configuration: context.configuration)
        let folder = try root.resolve(arguments.path ?? "", field: "/path")
        guard FilesRoot.isDirectory(folder) else {
            throw SkillError.invalidArguments(
                field: "/path", message: "\"\(arguments.path ?? ".")\" is a file, not a folder",
                remedy: "use files.read to read a file")
        }
        let limit = arguments.maxEntries ?? 200
        var entries: [FileEntry] = []
        var truncated = false
        var cancelled = false
        var walker = DirectoryWalker(root: root, includeHidden: arguments.includeHidden ?? false)
        try walker.walk(from: folder, recursive: arguments.recursive ?? false) { _, entry in
                if context.isCancelled {
                    cancelled = true
                    return .stop
                }
                if entries.count == limit {
                    truncated = true
                    return .stop
                }
                entries.append(entry)
                return .next
            }
        if cancelled { try context.checkCancellation() }
        return Output(
            root: root.configured, path: root.relativePath(of: folder), count: entries.count, truncated: truncated,
            entries: entries, unreadable: walker.unreadable.isEmpty ? nil : walker.unreadable)
    }
}
