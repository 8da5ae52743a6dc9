import SkillPosix

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
            throw failure("cannot open it: \(Posix.describe(errno: errno))", "check that the file is readable")
        }
        defer { close(descriptor) }
        try? Posix.lock(descriptor, .shared, path: path)
        return try parse(try contents(of: descriptor))
    }

    /// Changes the file under an exclusive lock: `change` gets the current calendar and what it leaves
    /// is written atomically (nothing is written when it leaves the calendar unchanged).
    /// - Returns: what `change` returns.
    /// - Throws: ``CalendarFileError`` for I/O and parse failures; whatever `change` throws, with the
    ///   file untouched.
    public func update<Result>(_ change: (inout ICalendarDocument) throws -> Result) throws -> Result {
        // A symbolic link is followed, so the link stays a link and the file it names is replaced.
        let target = Posix.resolvedPath(path) ?? path
        let folder = Posix.directoryName(of: target)
        try? Posix.createDirectories(folder)
        let descriptor: Int32
        do {
            descriptor = try Posix.openLockedExclusively(target)
        } catch {
            throw error.call == "open"
                ? failure(
                    "cannot open it for writing: \(error.reason)",
                    "check that the folder exists and is writable, or set another path in the plugin's config")
                : failure("cannot lock it: \(error.reason)", "retry the call")
        }
        defer { Posix.unlock(descriptor) }
        let existing = try contents(of: descriptor)
        var document = try parse(existing)
        let before = document
        let result = try change(&document)
        if document != before, let refusal = document.rewriteRefusal {
            throw failure(refusal.message, refusal.remedy)
        }
        if document.hasCalendar, !before.hasCalendar {
            // What was to be added went into a new VCALENDAR after the file's stand-alone components.
            throw failure(
                "it holds no VCALENDAR (its \(before.components[0].name) of line \(before.components[0].line) stands alone), "
                    + "so nothing can be added to it that calendar programs would read",
                "wrap the file in BEGIN:VCALENDAR … END:VCALENDAR, then retry")
        }
        if document != before || existing.isEmpty {
            let mode = Posix.permissions(of: descriptor) ?? 0o644
            do {
                try Posix.replaceFile(target, with: Array(document.serialized().utf8), mode: mode)
            } catch {
                throw error.call == "open"
                    ? failure("cannot create a temporary file beside it: \(error.reason)", "make the folder \(folder) writable")
                    : failure("writing it failed: \(error.reason)", "free disk space or check permissions, then retry")
            }
        }
        return result
    }

    private func contents(of descriptor: Int32) throws(CalendarFileError) -> [UInt8] {
        do {
            return try Posix.readAll(descriptor, path: path)
        } catch {
            throw failure("cannot read it: \(error.reason)", "check the file")
        }
    }

    private func parse(_ bytes: [UInt8]) throws(CalendarFileError) -> ICalendarDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .empty(productID: productID)
        }
        do {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                // Read with the bytes that are not UTF-8 replaced, and never written back: a rewrite would
                // replace them in the file too.
                var document = try ICalendarDocument(parsing: String(decoding: bytes, as: UTF8.self))
                let line = CalendarFileStore.firstLineNotUTF8(bytes)
                let problem = ICalendarError(
                    line: line, column: 1,
                    message: "the file is not UTF-8 text (from line \(line)); characters that are not UTF-8 are read as \u{FFFD}, "
                        + "and the file is not changed",
                    remedy: "save the calendar as UTF-8 (iCalendar files are UTF-8)")
                document.skipped.insert(problem, at: 0)
                document.rewriteRefusal = problem
                return document
            }
            return try ICalendarDocument(parsing: text)
        } catch {
            var problem = failure(error.message, error.remedy)
            problem.syntax = error
            throw problem
        }
    }

    /// The line of the first byte sequence that is not UTF-8.
    static func firstLineNotUTF8(_ bytes: [UInt8]) -> Int {
        var line = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            if String(validating: bytes[start..<index], as: UTF8.self) == nil { return line }
            line += 1
            start = index + 1
        }
        return line
    }

    private func failure(_ message: String, _ remedy: String) -> CalendarFileError {
        CalendarFileError(path: path, message: message, remedy: remedy, syntax: nil)
    }
}
