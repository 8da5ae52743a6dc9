/// Splits a byte stream into Server-Sent Events (WHATWG HTML, "Parsing an event stream"): `data:` lines
/// are joined with newlines until a blank line ends the event; `:` comments and other fields are ignored;
/// `\n`, `\r\n` and `\r` all end a line. Feed it chunks as they arrive, in any split.
struct ServerSentEventDecoder {
    private var line: [UInt8] = []
    private var data: [String] = []
    private var lastWasCarriageReturn = false

    /// The `data` payloads of the events completed by `chunk`.
    mutating func feed<C: Collection>(_ chunk: C) -> [String] where C.Element == UInt8 {
        if let events = chunk.withContiguousStorageIfAvailable({ feed(buffer: $0) }) { return events }
        return Array(chunk).withUnsafeBufferPointer { feed(buffer: $0) }
    }

    /// ``feed(_:)`` on contiguous bytes: the bytes between line ends go to the line in one append.
    private mutating func feed(buffer bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var events: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                var end = index + 1
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                lastWasCarriageReturn = false
                index = end
                continue
            }
            index += 1
            if byte == 0x0A, lastWasCarriageReturn {
                lastWasCarriageReturn = false  // the LF of a CRLF: the CR ended the line
                continue
            }
            lastWasCarriageReturn = byte == 0x0D
            if let event = endLine() { events.append(event) }
        }
        return events
    }

    /// The event still open when the stream ends without a blank line, if any.
    mutating func finish() -> String? {
        if !line.isEmpty, let event = endLine() { return event }
        return dispatch()
    }

    private mutating func endLine() -> String? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        if field == "data" { data.append(String(value)) }
        return nil
    }

    private mutating func dispatch() -> String? {
        guard !data.isEmpty else { return nil }
        defer { data.removeAll() }
        return data.joined(separator: "\n")
    }
}
