import SkillHTTP

/// An incremental HTTP/1.1 response parser: fed bytes as they arrive, it yields the head once, then body
/// bytes (de-chunked), then the end. Handles `Transfer-Encoding: chunked` (extensions and trailers
/// skipped), `Content-Length`, and bodies that end when the connection closes; skips `1xx` interim
/// responses. Strict: a malformed head or chunk size is an error, never a guess.
struct HTTPResponseParser {
    /// What one ``feed(_:)`` produced.
    enum Event: Equatable {
        /// The status line and header fields (names lowercased; repeated fields joined with ", ").
        case head(HTTPResponseHead)
        /// Body bytes, in order.
        case body([UInt8])
        /// The body is complete.
        case end
    }

    /// Why the bytes are not an HTTP/1.1 response.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    private var state = State.head
    private var pending: [UInt8] = []
    /// Where in `pending` the search for the end of the line (or head) being read resumes: the bytes of it
    /// before this were searched by an earlier ``feed(_:)`` and hold no end. Without it a head trickling in
    /// a byte at a time is searched again from its start on every byte (quadratic in its length).
    private var searched = 0
    /// The largest head accepted (status line and all header fields).
    static let maximumHeadBytes = 64 << 10
    /// `HEAD` requests and 204/304 replies have no body whatever the headers say.
    private let expectsBody: Bool

    /// A parser for the response to a request with `method`.
    init(method: String = "POST") {
        expectsBody = method.uppercased() != "HEAD"
    }

    /// Whether the whole response has been read.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Consumes `bytes` and returns what they completed.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Malformed) -> [Event] {
        pending.append(contentsOf: bytes)
        var events: [Event] = []
        var index = 0
        defer {
            pending.removeFirst(index)
            searched = max(0, searched - index)
        }
        while true {
            switch state {
            case .head:
                let end = try line(from: index, ending: Self.headEnd, limit: Self.maximumHeadBytes) {
                    "the response head is longer than \(Self.maximumHeadBytes) bytes"
                }
                guard let end else { return events }
                let head = try Self.parseHead(pending[index..<end])
                index = end + 4
                if (100..<200).contains(head.status) { continue }  // interim (100 Continue): the real head follows
                events.append(.head(head))
                state = try bodyState(for: head)
                if case .done = state { events.append(.end) }
            case .fixed(let remaining):
                let take = min(remaining, pending.count - index)
                if take > 0 { events.append(.body(Array(pending[index..<index + take]))) }
                index += take
                if remaining - take == 0 {
                    state = .done
                    events.append(.end)
                } else {
                    state = .fixed(remaining: remaining - take)
                    return events
                }
            case .chunkSize:
                let lineEnd = try line(from: index, ending: Self.lineEnd, limit: Self.maximumChunkSizeLineBytes) {
                    "a chunk-size line is longer than \(Self.maximumChunkSizeLineBytes) bytes"
                }
                guard let lineEnd else { return events }
                let line = pending[index..<lineEnd]
                let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
                guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(Self.isHexDigit),
                    let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
                else {
                    throw Malformed(description: "bad chunk size '\(String(decoding: line.prefix(40), as: UTF8.self))'")
                }
                index = lineEnd + 2
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let take = min(remaining, pending.count - index)
                if take > 0 { events.append(.body(Array(pending[index..<index + take]))) }
                index += take
                if remaining - take == 0 {
                    state = .chunkEnd
                } else {
                    state = .chunkData(remaining: remaining - take)
                    return events
                }
            case .chunkEnd:
                guard pending.count - index >= 2 else { return events }
                guard pending[index] == 13, pending[index + 1] == 10 else {
                    throw Malformed(description: "a chunk is longer than its size says")
                }
                index += 2
                state = .chunkSize
            case .trailers:
                let lineEnd = try line(from: index, ending: Self.lineEnd, limit: Self.maximumHeadBytes) {
                    "a trailer line is longer than \(Self.maximumHeadBytes) bytes"
                }
                guard let lineEnd else { return events }
                let empty = lineEnd == index
                index = lineEnd + 2
                if empty {
                    state = .done
                    events.append(.end)
                }
            case .untilClose:
                if index < pending.count { events.append(.body(Array(pending[index...]))) }
                index = pending.count
                return events
            case .done:
                index = pending.count  // bytes after the response (Connection: close) are ignored
                return events
            }
        }
    }

    /// Called when the connection closed: ends a body that runs until close, or reports a cut-off response.
    mutating func finish() throws(Malformed) -> [Event] {
        switch state {
        case .untilClose:
            state = .done
            return [.end]
        case .done:
            return []
        case .head:
            throw Malformed(description: pending.isEmpty ? "the server closed the connection without answering" : "the server closed the connection in the middle of the response head")
        default:
            throw Malformed(description: "the server closed the connection before the end of the response body")
        }
    }

    private func bodyState(for head: HTTPResponseHead) throws(Malformed) -> State {
        if !expectsBody || head.status == 204 || head.status == 304 { return .done }
        if let encoding = head.headers["transfer-encoding"] {
            guard encoding.lowercased().split(separator: ",").last?.trimmingSpaces() == "chunked" else {
                throw Malformed(description: "unsupported Transfer-Encoding '\(encoding)'")
            }
            return .chunkSize
        }
        if let length = head.headers["content-length"] {
            let digits = Substring(length).trimmingSpaces()
            guard !digits.isEmpty, digits.utf8.allSatisfy(Self.isDigit), let count = Int(digits) else {
                throw Malformed(description: "bad Content-Length '\(length)'")
            }
            return count == 0 ? .done : .fixed(remaining: count)
        }
        return .untilClose
    }

    /// The status line and header fields of a head (`bytes` without the empty line that ends it). Also
    /// reads a proxy's answer to `CONNECT` (``HTTPConnection/tunnel(to:through:)``).
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> HTTPResponseHead {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let statusLine = lines.popFirst() else { throw Malformed(description: "empty response head") }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3, parts[1].utf8.allSatisfy(isDigit),
            let status = Int(parts[1])
        else {
            throw Malformed(description: "not an HTTP/1.x status line: '\(statusLine.prefix(60))'")
        }
        // The field rules the server's request parser uses too (SkillHTTP's HTTPFields).
        let headers: [String: String]
        do {
            headers = try HTTPFields.parse(lines: lines).joined
        } catch {
            throw Malformed(description: error.description)
        }
        return HTTPResponseHead(status: status, headers: headers, reason: parts.count > 2 ? String(parts[2]) : "")
    }

    /// Where the line (or head) that starts at `start` ends: the index of its terminator (`ending`), or nil
    /// when the terminator has not arrived yet. Throws `message` when the line is longer than `limit`, from
    /// whichever feed shows it: the bytes so far without a terminator, or the whole line once it arrived, so
    /// a response is accepted or refused the same whether it comes in one piece or many.
    private mutating func line(from start: Int, ending: [UInt8], limit: Int, _ message: () -> String) throws(Malformed)
        -> Int?
    {
        guard let end = Self.find(ending, in: pending, from: max(start, searched)) else {
            // The terminator may begin in the last bytes (all but its last byte have arrived): the line is at
            // least this long, and the search resumes there next time.
            searched = max(start, pending.count - (ending.count - 1))
            if searched - start > limit { throw Malformed(description: message()) }
            return nil
        }
        searched = 0
        if end - start > limit { throw Malformed(description: message()) }
        return end
    }

    /// The end of a response head (an empty line).
    static let headEnd: [UInt8] = [13, 10, 13, 10]
    /// The end of a chunk-size or trailer line.
    private static let lineEnd: [UInt8] = [13, 10]
    /// The longest chunk-size line accepted (the size and its extensions).
    static let maximumChunkSizeLineBytes = 1024

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// The first index at or after `start` where `bytes` holds `pattern`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first else { return start }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == first, bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
