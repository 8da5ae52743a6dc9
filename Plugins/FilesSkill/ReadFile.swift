import Foundation
import SkillSDK

/// `files.read`: the text of one file below the root, a window of it at a time.
struct ReadFile: Skill {
    struct Arguments: Decodable {
        var path: String
        var offset: Int?
        var maxBytes: Int?
        var encoding: String?

        enum CodingKeys: String, CodingKey {
            case path, offset, encoding
            case maxBytes = "max_bytes"
        }
    }

    struct Output: Encodable {
        var path: String
        var size: Int
        var offset: Int
        var bytesRead: Int
        var nextOffset: Int?
        var truncated: Bool
        var encoding: String
        var lines: Int
        var text: String

        enum CodingKeys: String, CodingKey {
            case path, size, offset
            case bytesRead = "bytes_read"
            case nextOffset = "next_offset"
            case truncated, encoding, lines, text
        }
    }

    /// The default and the largest window, in bytes.
    static let defaultMaxBytes = 65_536
    static let largestMaxBytes = 1_048_576

    let name = "read"
    let title = "Read a text file"
    let description = """
        Reads the text of one file from the user's files (read-only, below the configured root folder): \
        UTF-8, UTF-16 or Latin-1, detected automatically; at most max_bytes at a time (64 KiB by default), \
        from a byte offset, with next_offset to continue. Binary files (images, archives, PDFs) are refused. \
        Not for listing folders (use files.list), not for finding files (use files.search), and not for \
        counting words in a text (use text.stats on the text).
        """
    let parameters = ParameterSchema.object(
        [
            "path": .string("File path relative to the root, e.g. notes/todo.txt", minLength: 1, maxLength: 4096),
            "offset": .integer("Byte offset to start reading at (default 0)", minimum: 0, maximum: Int64(Int32.max)),
            "max_bytes": .integer(
                "The most bytes to read (default 65536)", minimum: 1, maximum: Int64(ReadFile.largestMaxBytes)),
            "encoding": .string("Text encoding; auto detects it (default)", oneOf: TextDecoding.names),
        ], required: ["path"])
    let timeout = 10.0
    let summary: String? = "Read {bytes_read} of {size} bytes of {path} ({encoding})."
    let examples = [
        "read the file {path}", "show me {path}", "what does {path} say", "open {path}",
        "print the contents of {path}", "read {path} from byte {offset}",
    ]

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let root = try FilesRoot(configuration: context.configuration)
        let file = try root.resolve(arguments.path, field: "/path")
        if FilesRoot.isDirectory(file) {
            throw SkillError.invalidArguments(
                field: "/path", message: "\"\(arguments.path)\" is a folder, not a file",
                remedy: "use files.list to see what it holds")
        }
        guard FilesRoot.isRegularFile(file) else {
            throw SkillError.invalidArguments(
                field: "/path", message: "\"\(arguments.path)\" is not a regular file (a pipe, socket or device)",
                remedy: "files.read reads text files only")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            let reason = String(cString: strerror(errno))
            throw SkillError.permissionDenied(
                message: "\"\(arguments.path)\" (\(file)) cannot be opened for reading: \(reason)")
        }
        defer { try? handle.close() }
        let size = Int((try? handle.seekToEnd()) ?? 0)
        let offset = arguments.offset ?? 0
        let limit = arguments.maxBytes ?? ReadFile.defaultMaxBytes
        guard offset <= size else {
            throw SkillError.invalidArguments(
                field: "/offset", message: "offset \(offset) is past the end of \"\(arguments.path)\" (\(size) bytes)",
                remedy: "use an offset below \(size)")
        }
        try handle.seek(toOffset: 0)
        let head = [UInt8](try handle.read(upToCount: 8192) ?? Data())
        var detected: (encoding: String, bom: Int)
        do throws(TextDecoding.Failure) {
            detected = try TextDecoding.detect(head)
        } catch {
            throw ReadFile.refusal(error, path: arguments.path, base: 0)
        }
        if let requested = arguments.encoding, requested != "auto" {
            detected = (requested, detected.encoding == requested ? detected.bom : 0)
        }
        let start = max(offset, detected.bom)
        try handle.seek(toOffset: UInt64(start))
        var bytes = ArraySlice([UInt8](try handle.read(upToCount: limit) ?? Data()))
        var consumedStart = start
        if detected.encoding == "utf-8" {
            // A window may start or end inside a character: start at the next one, leave the cut one for
            // the next read.
            let (skip, drop) = TextDecoding.utf8Boundaries(bytes)
            let skipped = start > detected.bom ? skip : 0
            bytes = bytes.dropFirst(skipped).dropLast(start + bytes.count < size ? drop : 0)
            consumedStart += skipped
        } else if detected.encoding.hasPrefix("utf-16"), (start - detected.bom) % 2 == 1 {
            bytes = bytes.dropFirst()
            consumedStart += 1
        }
        if detected.encoding.hasPrefix("utf-16"), bytes.count % 2 == 1, consumedStart + bytes.count < size {
            bytes = bytes.dropLast()
        }
        let text: String
        do throws(TextDecoding.Failure) {
            text = try TextDecoding.decode(bytes, as: detected.encoding)
        } catch {
            throw ReadFile.refusal(error, path: arguments.path, base: consumedStart)
        }
        let end = consumedStart + bytes.count
        return Output(
            path: root.relativePath(of: file), size: size, offset: offset, bytesRead: end - offset,
            nextOffset: end < size ? end : nil, truncated: end < size, encoding: detected.encoding,
            lines: text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count
                - (text.hasSuffix("\n") ? 1 : 0),
            text: text)
    }

    /// The error for bytes that are not text.
    static func refusal(_ failure: TextDecoding.Failure, path: String, base: Int) -> SkillError {
        switch failure {
        case .binary(let offset):
            return SkillError.failed(
                message: "\"\(path)\" is a binary file (NUL or control bytes at byte \(base + offset)); files.read reads text only",
                remedy: "pick a text file; files.list shows sizes and names")
        case .invalid(let encoding, let offset):
            return SkillError.invalidArguments(
                field: "/encoding", message: "\"\(path)\" is not valid \(encoding) at byte \(base + offset)",
                remedy: "use encoding \"auto\" or \"latin-1\"")
        }
    }
}
