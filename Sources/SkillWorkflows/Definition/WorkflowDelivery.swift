import SkillHostCore
import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// A workflow's `deliver`: once every step has ended and the run succeeded, the host writes `text` (a
/// template: references to the input and the steps' outputs, as a step's arguments have) to the file `to`
/// names, relative to the host's deliveries folder (`$XDG_DATA_HOME/skillhost/deliveries`). The write is
/// the host's own, never a skill's: durable (temporary file, fsync, rename, fsync of the folder) under an
/// exclusive lock of the file, and confined: `to` is a relative path of plain names (no `..`, no absolute
/// path, no link on the way), checked before the run and again once its references are filled in.
public struct WorkflowDelivery: Sendable, Equatable {
    /// The file's path under the deliveries folder; may hold references (`briefing-${{ steps.now.output.date }}.md`).
    public var to: String
    /// What the file holds: a string with references in it, or one reference (text as it is, any other
    /// value as JSON).
    public var text: JSONValue
    /// Where `deliver:` is in the file.
    public var position: SourcePosition

    public init(to: String, text: JSONValue, position: SourcePosition = SourcePosition(line: 0, column: 0)) {
        self.to = to
        self.text = text
        self.position = position
    }

    /// The folder deliveries go to, beside the plugins' data folder `data` (`…/skillhost/data`).
    public static func folder(data: String) -> String {
        let parent = Posix.directoryName(of: data)
        return (parent == "/" ? "" : parent) + "/deliveries"
    }

    /// Why `path` (a filled-in `to`) may not be delivered to, with the fix; nil when it may.
    public static func problem(ofPath path: String) -> String? {
        let fix = "give a relative path under the deliveries folder such as 'briefings/today.md'"
        if path.isEmpty { return "deliver.to is empty; \(fix)" }
        if path.hasPrefix("/") { return "deliver.to '\(path)' is an absolute path; \(fix)" }
        if path.utf8.count > 1024 { return "deliver.to is longer than 1024 bytes; \(fix)" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: { $0 == ".." }) { return "deliver.to '\(path)' leaves the deliveries folder ('..'); \(fix)" }
        if parts.contains(where: { $0.isEmpty || $0 == "." }) { return "deliver.to '\(path)' has an empty or '.' part; \(fix)" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "deliver.to has a control character; \(fix)"
        }
        if parts.contains(where: { $0.hasPrefix(".") }) { return "deliver.to '\(path)' names a hidden file or folder; \(fix)" }
        return nil
    }

    /// Fills in the references of `to` and `text` with `lookup`.
    public func resolve(_ lookup: (WorkflowReference) -> JSONValue?) throws(WorkflowSyntaxError) -> (path: String, text: String) {
        let path = try WorkflowTemplate.resolve(.string(to), lookup)
        let body = try WorkflowTemplate.resolve(text, lookup)
        let pathText = path.stringValue ?? path.serialized()
        let bodyText = body.stringValue ?? body.serialized(options: .prettyPrinted)
        return (pathText, bodyText.hasSuffix("\n") ? bodyText : bodyText + "\n")
    }

    /// Writes `text` to `path` under `folder`, durably and locked; returns the file's full path. The error
    /// says what went wrong, where, and the fix.
    public static func write(_ text: String, to path: String, under folder: String) throws(WorkflowSyntaxError) -> String {
        if let problem = problem(ofPath: path) { throw WorkflowSyntaxError(problem) }
        var current = folder
        do throws(Posix.Failure) { try Posix.createDirectories(folder) } catch {
            throw WorkflowSyntaxError("the deliveries folder \(folder) cannot be made (\(error)); check its parent's permissions")
        }
        let parts = path.split(separator: "/").map(String.init)
        // Every folder on the way is a real folder under the deliveries folder, never a link out of it.
        for part in parts.dropLast() {
            current += "/" + part
            var status = stat()
            if lstat(current, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw WorkflowSyntaxError("deliver.to '\(path)': \(current) is not a folder (a file or a link); remove it or deliver elsewhere")
                }
            } else if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw WorkflowSyntaxError("deliver.to '\(path)': the folder \(current) cannot be made (\(String(cString: strerror(errno)))); check the permissions")
            }
        }
        let target = current + "/" + parts.last!
        var status = stat()
        if lstat(target, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw WorkflowSyntaxError("deliver.to '\(path)': \(target) is not a plain file (a folder or a link); remove it or deliver elsewhere")
        }
        do throws(Posix.Failure) {
            let lock = try Posix.openLockedExclusively(target, mode: 0o600)
            defer { close(lock) }
            try Posix.replaceFile(target, with: Array(text.utf8), mode: 0o600)
        } catch {
            throw WorkflowSyntaxError("the delivery to \(target) failed (\(error)); check the folder's permissions and free space")
        }
        return target
    }
}
