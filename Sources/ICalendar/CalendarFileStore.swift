import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failed read or write of a calendar file: which file, what went wrong and how to fix it.
public struct CalendarFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var remedy: String
    /// Set when the file does not parse.
    public var syntax: ICalendarError?

    public var description: String {
        if let syntax { return "\(path): \(syntax)" }
        return "\(path): \(message); \(remedy)"
    }
}

/// One iCalendar file on disk, read under a shared lock and changed under an exclusive `flock` on the file
/// itself: read, change, write a temporary file beside it, fsync, rename over it, fsync the folder. Two
/// processes changing it at once take turns, so neither loses the other's change; a file that does not
/// parse is never overwritten; a failed write leaves no temporary file behind.
public struct CalendarFileStore: Sendable {
    /// The file's path (a symbolic link is followed, so the link stays a link).
    public let path: String
    /// The PRODID a new file gets.
    public let productID: String

    public init(path: String, productID: String = "-//SkillHost//Calendar 1.0//EN") {
        self.path = path
        self.productID = productID
    }

    /// The file's calendar; an empty one when the file does not exist or is empty.
    /// - Throws: ``CalendarFileError`` when it cannot be read or does not parse.
    public func read() throws(CalendarFileError) -> ICalendarDocument {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return .empty(productID: productID) }
            throw failure("cannot open it: \(String(cString: strerror(errno)))", "check that the file is readable")
        }
        defer { close(descriptor) }
        _ = flock(descriptor, LOCK_SH)
        return try parse(try contents(of: descriptor))
    }

    /// Changes the file under an exclusive lock: `change` gets the current calendar and what it leaves
    /// is written atomically (nothing is written when it leaves the calendar unchanged).
    /// - Returns: what `change` returns.
    /// - Throws: ``CalendarFileError`` for I/O and parse failures; whatever `change` throws, with the
    ///   file untouched.
    public func update<Result>(_ change: (inout ICalendarDocument) throws -> Result) throws -> Result {
        let target = resolvedPath()
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let descriptor = try lockedDescriptor(target)
        defer { close(descriptor) }
        let existing = try contents(of: descriptor)
        var document = try parse(existing)
        let before = document
        let result = try change(&document)
        if document != before || existing.isEmpty {
            var status = stat()
            let mode = fstat(descriptor, &status) == 0 ? status.st_mode & 0o7777 : 0o644
            try replace(target, folder: folder, with: document.serialized(), mode: mode)
        }
        return result
    }

    /// Opens (creating) `target` and takes the exclusive lock on the inode that is still at that path
    /// (another writer may have renamed a new file over the one this process opened).
    private func lockedDescriptor(_ target: String) throws(CalendarFileError) -> Int32 {
        for _ in 0..<100 {
            let descriptor = open(target, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw failure(
                    "cannot open it for writing: \(String(cString: strerror(errno)))",
                    "check that the folder exists and is writable, or set another path in the plugin's config")
            }
            guard flock(descriptor, LOCK_EX) == 0 else {
                close(descriptor)
                throw failure("cannot lock it: \(String(cString: strerror(errno)))", "retry the call")
            }
            var opened = stat()
            var current = stat()
            if fstat(descriptor, &opened) == 0, stat(target, &current) == 0, opened.st_ino == current.st_ino,
                opened.st_dev == current.st_dev
            {
                return descriptor
            }
            close(descriptor)
        }
        throw failure("the file kept being replaced while waiting for its lock", "retry the call")
    }

    /// Writes `text` to a temporary file in `folder`, fsyncs it, renames it to `target` and fsyncs the folder.
    private func replace(_ target: String, folder: String, with text: String, mode: mode_t) throws(CalendarFileError) {
        let name = (target as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw failure(
                "cannot create a temporary file beside it: \(String(cString: strerror(errno)))",
                "make the folder \(folder) writable")
        }
        var bytes = Array(text.utf8)
        var written = 0
        var ok = true
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                ok = false
                break
            }
            written += count
        }
        let reason = String(cString: strerror(errno))
        ok = ok && fsync(descriptor) == 0
        close(descriptor)
        guard ok, rename(temporary, target) == 0 else {
            unlink(temporary)
            bytes.removeAll()
            throw failure("writing it failed: \(reason)", "free disk space or check permissions, then retry")
        }
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    private func contents(of descriptor: Int32) throws(CalendarFileError) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read it: \(String(cString: strerror(errno)))", "check the file")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
    }

    private func parse(_ bytes: [UInt8]) throws(CalendarFileError) -> ICalendarDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .empty(productID: productID)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw failure("it is not UTF-8 text", "save the calendar as UTF-8 (iCalendar files are UTF-8)")
        }
        do {
            return try ICalendarDocument(parsing: text)
        } catch {
            var problem = failure(error.message, error.remedy)
            problem.syntax = error
            throw problem
        }
    }

    private func resolvedPath() -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func failure(_ message: String, _ remedy: String) -> CalendarFileError {
        CalendarFileError(path: path, message: message, remedy: remedy, syntax: nil)
    }
}
