import Foundation
import SkillSDK

/// `files.search`: files below a folder whose name matches a glob and/or whose text contains a substring
/// or matches a regular expression. Bounded: it stops after `max_results` matches, `max_files` files looked
/// at or `max_seconds`, and says which bound stopped it.
struct SearchFiles: Skill {
    struct Arguments: Decodable {
        var path: String?
        var name: String?
        var contains: String?
        var regex: String?
        var caseSensitive: Bool?
        var includeHidden: Bool?
        var maxResults: Int?
        var maxFiles: Int?
        var maxSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case path, name, contains, regex
            case caseSensitive = "case_sensitive"
            case includeHidden = "include_hidden"
            case maxResults = "max_results"
            case maxFiles = "max_files"
            case maxSeconds = "max_seconds"
        }
    }

    struct Match: Encodable, Equatable {
        var path: String
        var size: Int64?
        var lineNumber: Int?
        var line: String?

        enum CodingKeys: String, CodingKey {
            case path, size
            case lineNumber = "line_number"
            case line
        }
    }

    struct Output: Encodable {
        var path: String
        var count: Int
        var filesScanned: Int
        var truncated: Bool
        var stoppedBy: String?
        var matches: [Match]
        /// Folders and files that could not be read (with the reason); absent when there were none.
        var unreadable: [String]?

        enum CodingKeys: String, CodingKey {
            case path, count
            case filesScanned = "files_scanned"
            case truncated
            case stoppedBy = "stopped_by"
            case matches, unreadable
        }
    }

    /// Files larger than this are matched by name only, never read.
    static let largestSearchedFile: Int64 = 4 << 20
    /// A matching line is cut to this many characters in the result.
    static let longestLine = 300

    let name = "search"
    let title = "Search files"
    let description = """
        Finds files in the user's files (read-only, below the configured root folder) by name glob (e.g. \
        "*.md", "report-202?.txt") and/or by content: a substring or a regular expression, reporting each \
        matching line with its number. Bounded in results, files and seconds. Not for reading a whole file \
        (use files.read), not for listing one folder (use files.list), and not for searching calendar events \
        (use calendar.list_events).
        """
    let parameters = ParameterSchema.object(
        [
            "name": .string("Glob the file name must match, e.g. *.txt (a glob with / matches the path)", minLength: 1, maxLength: 256),
            "contains": .string("Text the file must contain", minLength: 1, maxLength: 1000),
            "regex": .string("Regular expression a line must match (instead of contains)", minLength: 1, maxLength: 1000),
            "path": .string("Folder to search below, relative to the root; the root when absent", maxLength: 4096),
            "case_sensitive": .boolean("Match name and content with case (default false)"),
            "include_hidden": .boolean("Also search names starting with a dot (default false)"),
            "max_results": .integer("The most matches to return (default 50)", minimum: 1, maximum: 1000),
            "max_files": .integer("The most files to look at (default 10000)", minimum: 1, maximum: 200_000),
            "max_seconds": .number("The longest the search may run, in seconds (default 5)", minimum: 0.1, maximum: 25),
        ], required: [])
    let timeout = 30.0
    let summary: String? = "{count|match|matches} after looking at {files_scanned|file|files}."
    let examples = [
        "find files named {name}", "search my files for {contains}", "which files mention {contains}",
        "find {name} files in {path}", "search for {contains} in {path}", "find files matching {regex}",
        "where is the file {name}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let root = try FilesRoot(configuration: context.configuration)
        guard arguments.name != nil || arguments.contains != nil || arguments.regex != nil else {
            throw SkillError.invalidArguments(
                field: "", message: "give at least one of name, contains or regex",
                remedy: "e.g. {\"name\": \"*.md\"} or {\"contains\": \"invoice\"}")
        }
        if arguments.contains != nil && arguments.regex != nil {
            throw SkillError.invalidArguments(
                field: "/regex", message: "contains and regex cannot be used together", remedy: "give one of them")
        }
        let folder = try root.resolve(arguments.path ?? "", field: "/path")
        guard FilesRoot.isDirectory(folder) else {
            throw SkillError.invalidArguments(
                field: "/path", message: "\"\(arguments.path ?? ".")\" is a file, not a folder",
                remedy: "give the folder to search below")
        }
        let caseSensitive = arguments.caseSensitive ?? false
        let matcher = try LineMatcher(contains: arguments.contains, regex: arguments.regex, caseSensitive: caseSensitive)
        let limits = (
            results: arguments.maxResults ?? 50, files: arguments.maxFiles ?? 10_000,
            deadline: ContinuousClock.now + .milliseconds(Int((arguments.maxSeconds ?? 5) * 1000))
        )
        var matches: [Match] = []
        var scanned = 0
        var stoppedBy: String?
        var unreadableFiles: [String] = []
        var walker = DirectoryWalker(root: root, includeHidden: arguments.includeHidden ?? false)
        try walker.walk(from: folder, recursive: true) { absolute, entry in
                if context.isCancelled || ContinuousClock.now >= limits.deadline {
                    stoppedBy = context.isCancelled ? "cancelled" : "max_seconds"
                    return .stop
                }
                guard entry.type == "file" else { return .next }
                if scanned == limits.files {
                    stoppedBy = "max_files"
                    return .stop
                }
                scanned += 1
                if let glob = arguments.name,
                    !SearchFiles.glob(glob, matches: glob.contains("/") ? entry.path : entry.name, caseSensitive)
                {
                    return .next
                }
                guard let matcher else {
                    matches.append(Match(path: entry.path, size: entry.size))
                    if matches.count == limits.results { stoppedBy = "max_results" }
                    return matches.count == limits.results ? .stop : .next
                }
                guard (entry.size ?? 0) <= SearchFiles.largestSearchedFile else { return .next }
                let text: String
                switch SearchFiles.text(of: absolute) {
                case .success(let found?): text = found
                case .success(nil): return .next  // binary: matched by name only
                case .failure(let refusal):
                    unreadableFiles.append("\(entry.path) (\(refusal.reason))")
                    return .next
                }
                var lineNumber = 0
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    lineNumber += 1
                    if lineNumber % 1024 == 0, ContinuousClock.now >= limits.deadline {
                        stoppedBy = "max_seconds"
                        return .stop
                    }
                    guard matcher.matches(line) else { continue }
                    matches.append(
                        Match(
                            path: entry.path, size: entry.size, lineNumber: lineNumber,
                            line: String(line.prefix(SearchFiles.longestLine))))
                    if matches.count == limits.results {
                        stoppedBy = "max_results"
                        return .stop
                    }
                }
                return .next
            }
        if stoppedBy == "cancelled" { try context.checkCancellation() }
        let unreadable = walker.unreadable + unreadableFiles
        return Output(
            path: root.relativePath(of: folder), count: matches.count, filesScanned: scanned,
            truncated: stoppedBy != nil, stoppedBy: stoppedBy, matches: matches,
            unreadable: unreadable.isEmpty ? nil : unreadable)
    }

    /// glibc's `FNM_CASEFOLD` (a GNU extension Swift does not import).
    static let fnmCaseFold: Int32 = 1 << 4

    /// `fnmatch(3)` of a glob against a name or path.
    static func glob(_ pattern: String, matches name: String, _ caseSensitive: Bool) -> Bool {
        let flags = (pattern.contains("/") ? FNM_PATHNAME : 0) | (caseSensitive ? 0 : fnmCaseFold)
        return fnmatch(pattern, name, flags) == 0
    }

    /// The text of a file when it is text (UTF-8 or Latin-1, as `files.read` detects), else nil.
    /// The text of a file; nil for a binary one; the errno when it cannot be read (never passed over as if
    /// it held nothing).
    static func text(of path: String) -> Result<String?, ReadRefusal> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadRefusal(code: errno)) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            return .failure(ReadRefusal(code: EIO))
        }
        guard let detected = try? TextDecoding.detect(Array(bytes.prefix(8192))) else { return .success(String?.none) }
        return .success((try? TextDecoding.decode(bytes[detected.bom...], as: detected.encoding)) as String?)
    }
}

/// A line test: a substring or a regular expression, with or without case.
struct LineMatcher {
    private let needle: String?
    private let regex: Regex<AnyRegexOutput>?
    private let caseSensitive: Bool

    /// nil when neither `contains` nor `regex` is given.
    /// - Throws: ``SkillError`` at `/regex` when the expression does not compile.
    init?(contains: String?, regex pattern: String?, caseSensitive: Bool) throws(SkillError) {
        guard contains != nil || pattern != nil else { return nil }
        self.caseSensitive = caseSensitive
        needle = contains.map { caseSensitive ? $0 : $0.lowercased() }
        if let pattern {
            do {
                let compiled = try Regex(pattern)
                regex = caseSensitive ? compiled : compiled.ignoresCase()
            } catch {
                throw SkillError.invalidArguments(
                    field: "/regex", message: "the regular expression \"\(pattern)\" does not compile: \(error)",
                    remedy: "fix the expression, or use contains for plain text")
            }
        } else {
            regex = nil
        }
    }

    func matches(_ line: Substring) -> Bool {
        if let needle { return (caseSensitive ? String(line) : line.lowercased()).contains(needle) }
        guard let regex else { return false }
        return (try? regex.firstMatch(in: line)) != nil
    }
}
