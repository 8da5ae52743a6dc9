import StableHash

/// One finished call waiting in a ``FinishLog``: what ``HistoryStore/finishCall(_:with:context:)`` would
/// write for it.
struct FinishRecord: Sendable, Equatable {
    /// The call's row in `skill_calls`.
    var rowID: Int64
    /// How it ended.
    var outcome: CallOutcome
    /// Session-context keys it changed (key → JSON text).
    var context: [String: String]
    /// When it finished (Unix milliseconds): the context keys' `updated_ms`.
    var finishedMilliseconds: Int64
    /// For a call whose row is written with its finish (``HistoryStore/recordFinish(of:with:context:)``):
    /// who asked for it (call id, session, message position, skill, redacted arguments); ``rowID`` is 0.
    var start: CallStart? = nil
}

/// What identifies a call whose row is written only when it finishes (``FinishRecord/start``).
struct CallStart: Sendable, Equatable {
    var callID: String
    var sessionID: String
    var messagePosition: Int64?
    var skillID: String
    var argumentsJSON: String
    /// The front end that made the call (version 3).
    var frontEnd: String? = nil
    /// Its client, when it has one (version 3).
    var client: String? = nil
    /// The title of the call's session when the session may not exist yet: it is made with the row
    /// (version 3; `skillhost call` and `mcp`, whose sessions have no messages).
    var sessionTitle: String? = nil
}

/// The bytes of a ``FinishRecord`` in a finish log, written down as data (all integers little-endian):
///
/// ```
/// record  := length:u32 checksum:u32 body           length = body bytes; checksum = FNV-1a 32 of body
/// body    := version:u8(=1|2|3) row:i64 finished:i64 duration:f64 started:opt-i64 pid:opt-i64
///            status:str result:opt-str summary:opt-str error_kind:opt-str error:opt-str
///            idempotency_key:opt-str plugin_version:opt-str plugin_sha256:opt-str
///            count:u32 (key:str value:str){count}
///            start                                   only in versions 2 and 3
///            origin                                  only in version 3
/// start   := call_id:str session:str message_position:opt-i64 skill:str arguments:str
/// origin  := front_end:opt-str client:opt-str session_title:opt-str
/// str     := length:u32 UTF-8 bytes            opt-x := 0:u8 | 1:u8 x
/// ```
///
/// A log ends at the end of its file or at a header of zeros (``FinishLog`` writes into a file of zeros,
/// each record's header after its body); what follows a zero header is not read.
///
/// The decoder is strict: a length past the end, a checksum that does not match, an unknown version or
/// status, bad UTF-8 or bytes left over all make the record unreadable (a torn tail after a power cut, or a
/// damaged file).
enum FinishRecordCoding {
    /// A finish of a row written before (version 1), or of a call whose row it writes (version 2: with a
    /// start; version 3: with its front end, client and session title too, what this build writes).
    static let version: UInt8 = 1
    static let versionWithStart: UInt8 = 2
    static let versionWithOrigin: UInt8 = 3
    /// Bytes before the body.
    static let headerSize = 8
    /// A record longer than this is refused by the decoder (no finish is this big: results are capped far
    /// below it by the worker frame limit).
    static let maximumBodySize = 64 << 20

    /// The record's bytes, header included.
    static func encode(_ record: FinishRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(record, into: &bytes)
        return bytes
    }

    /// Appends the record's bytes, header included, to `bytes` (a buffer the caller reuses). The record is
    /// measured first, written field by field into scratch memory of its exact size and appended with one
    /// copy: a server encodes one per call.
    static func encode(_ record: FinishRecord, into bytes: inout [UInt8]) {
        // The fields are read through `record` where they lie, and the scratch memory is allocated rather
        // than lent to a closure: a closure that reads the record gets a copy of it (a retain and a release
        // of each of its texts).
        let context = record.context.isEmpty ? [] : record.context.sorted { $0.key < $1.key }
        var size = headerSize + 1 + 8 + 8 + 8 + Writer.size(record.outcome.startedMilliseconds) + Writer.size(record.outcome.workerPID)
            + Writer.size(record.outcome.status.rawValue) + Writer.size(record.outcome.resultJSON) + Writer.size(record.outcome.summary)
            + Writer.size(record.outcome.errorKind) + Writer.size(record.outcome.error) + Writer.size(record.outcome.idempotencyKey)
            + Writer.size(record.outcome.pluginVersion) + Writer.size(record.outcome.pluginSHA256) + 4
        for (key, value) in context { size += Writer.size(key) + Writer.size(value) }
        if let start = record.start {
            size += Writer.size(start.callID) + Writer.size(start.sessionID) + Writer.size(start.messagePosition)
                + Writer.size(start.skillID) + Writer.size(start.argumentsJSON) + Writer.size(start.frontEnd)
                + Writer.size(start.client) + Writer.size(start.sessionTitle)
        }
        let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { base.deallocate() }
        var writer = Writer(position: base + headerSize)
        writer.byte(record.start == nil ? version : versionWithOrigin)
        writer.uint64(UInt64(bitPattern: record.rowID))
        writer.uint64(UInt64(bitPattern: record.finishedMilliseconds))
        writer.uint64(record.outcome.durationMilliseconds.bitPattern)
        writer.optional(record.outcome.startedMilliseconds)
        writer.optional(record.outcome.workerPID)
        writer.text(record.outcome.status.rawValue)
        writer.optional(record.outcome.resultJSON)
        writer.optional(record.outcome.summary)
        writer.optional(record.outcome.errorKind)
        writer.optional(record.outcome.error)
        writer.optional(record.outcome.idempotencyKey)
        writer.optional(record.outcome.pluginVersion)
        writer.optional(record.outcome.pluginSHA256)
        writer.uint32(UInt32(context.count))
        for (key, value) in context {
            writer.text(key)
            writer.text(value)
        }
        if let start = record.start {
            writer.text(start.callID)
            writer.text(start.sessionID)
            writer.optional(start.messagePosition)
            writer.text(start.skillID)
            writer.text(start.argumentsJSON)
            writer.optional(start.frontEnd)
            writer.optional(start.client)
            writer.optional(start.sessionTitle)
        }
        let bodyCount = size - headerSize
        precondition(writer.position == base + size, "a finish record was measured wrong")
        let sum = FNV1a.hash32(UnsafeRawBufferPointer(start: base + headerSize, count: bodyCount))
        base.storeBytes(of: UInt32(bodyCount).littleEndian, as: UInt32.self)
        base.storeBytes(of: sum.littleEndian, toByteOffset: 4, as: UInt32.self)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: base, count: size))
    }

    /// Writes a record's fields into memory measured for them (little-endian, see the format above).
    struct Writer {
        var position: UnsafeMutableRawPointer

        static func size(_ text: String) -> Int { 4 + text.utf8.count }
        static func size(_ text: String?) -> Int { 1 + (text.map(size) ?? 0) }
        static func size(_ value: Int64?) -> Int { value == nil ? 1 : 9 }

        mutating func byte(_ value: UInt8) {
            position.storeBytes(of: value, as: UInt8.self)
            position += 1
        }

        mutating func uint32(_ value: UInt32) {
            position.storeBytes(of: value.littleEndian, as: UInt32.self)
            position += 4
        }

        mutating func uint64(_ value: UInt64) {
            position.storeBytes(of: value.littleEndian, as: UInt64.self)
            position += 8
        }

        mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in self.text(UnsafeRawBufferPointer(utf8)) }
        }

        /// UTF-8 bytes as a text field.
        mutating func text(_ utf8: UnsafeRawBufferPointer) {
            uint32(UInt32(utf8.count))
            if let source = utf8.baseAddress { position.copyMemory(from: source, byteCount: utf8.count) }
            position += utf8.count
        }

        mutating func optional(_ text: String?) {
            guard let text else { return byte(0) }
            byte(1)
            self.text(text)
        }

        mutating func optional(_ value: Int64?) {
            guard let value else { return byte(0) }
            byte(1)
            uint64(UInt64(bitPattern: value))
        }
    }

    /// Why bytes are not a record.
    struct Unreadable: Error, Equatable {
        /// Byte offset of the record in the file.
        var offset: Int
        /// What is wrong.
        var reason: String
    }

    /// Every record of `bytes` in order. Stops at the first unreadable one: returns the records before it
    /// and what is wrong with it.
    static func decodeAll(_ bytes: [UInt8]) -> (records: [FinishRecord], problem: Unreadable?) {
        var records: [FinishRecord] = []
        var offset = 0
        while offset < bytes.count {
            // Zeros where a header would be: the end of the log (space not written yet, or records already
            // committed and being cleared). No record has a length of 0.
            if bytes[offset..<min(offset + headerSize, bytes.count)].allSatisfy({ $0 == 0 }) { break }
            do {
                let (record, next) = try decode(bytes, at: offset)
                records.append(record)
                offset = next
            } catch {
                return (records, error)
            }
        }
        return (records, nil)
    }

    /// The record at `offset` and the offset after it.
    static func decode(_ bytes: [UInt8], at offset: Int) throws(Unreadable) -> (FinishRecord, Int) {
        var reader = Reader(bytes: bytes, position: offset, recordStart: offset)
        let length = Int(try reader.uint32())
        let sum = try reader.uint32()
        guard length <= maximumBodySize, length <= bytes.count - reader.position else {
            throw Unreadable(offset: offset, reason: "record of \(length) bytes runs past the end of the file (torn write)")
        }
        let end = reader.position + length
        guard checksum(bytes[reader.position..<end]) == sum else {
            throw Unreadable(offset: offset, reason: "checksum mismatch (damaged record)")
        }
        reader.end = end
        let recordVersion = try reader.byte()
        guard recordVersion == version || recordVersion == versionWithStart || recordVersion == versionWithOrigin else {
            throw Unreadable(offset: offset, reason: "unknown record version")
        }
        let row = Int64(bitPattern: try reader.uint64())
        let finished = Int64(bitPattern: try reader.uint64())
        let duration = Double(bitPattern: try reader.uint64())
        let started = try reader.optionalInt64()
        let pid = try reader.optionalInt64()
        let statusText = try reader.string()
        guard let status = CallStatus(rawValue: statusText) else {
            throw Unreadable(offset: offset, reason: "unknown call status \"\(statusText)\"")
        }
        var texts: [String?] = []
        for _ in 0..<7 { texts.append(try reader.optionalString()) }
        let count = Int(try reader.uint32())
        guard count <= length else { throw Unreadable(offset: offset, reason: "context count \(count) past the record") }
        var context: [String: String] = [:]
        for _ in 0..<count {
            let key = try reader.string()
            context[key] = try reader.string()
        }
        var start: CallStart?
        if recordVersion != version {
            start = CallStart(
                callID: try reader.string(), sessionID: try reader.string(), messagePosition: try reader.optionalInt64(),
                skillID: try reader.string(), argumentsJSON: try reader.string())
            if recordVersion == versionWithOrigin {
                start?.frontEnd = try reader.optionalString()
                start?.client = try reader.optionalString()
                start?.sessionTitle = try reader.optionalString()
            }
        }
        guard reader.position == end else { throw Unreadable(offset: offset, reason: "\(end - reader.position) bytes left over") }
        var outcome = CallOutcome(
            status: status, resultJSON: texts[0], summary: texts[1], errorKind: texts[2], error: texts[3],
            durationMilliseconds: duration)
        outcome.startedMilliseconds = started
        outcome.idempotencyKey = texts[4]
        outcome.pluginVersion = texts[5]
        outcome.pluginSHA256 = texts[6]
        outcome.workerPID = pid
        return (FinishRecord(rowID: row, outcome: outcome, context: context, finishedMilliseconds: finished, start: start), end)
    }

    /// FNV-1a, 32 bits.
    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 { FNV1a.hash32(bytes) }

    /// Reads fields of one record, never past ``end``.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        let recordStart: Int
        var end: Int

        init(bytes: [UInt8], position: Int, recordStart: Int) {
            self.bytes = bytes
            self.position = position
            self.recordStart = recordStart
            self.end = bytes.count
        }

        mutating func take(_ count: Int) throws(Unreadable) -> ArraySlice<UInt8> {
            guard count >= 0, count <= end - position else {
                throw Unreadable(offset: recordStart, reason: "field runs past the end of the record")
            }
            defer { position += count }
            return bytes[position..<position + count]
        }

        mutating func byte() throws(Unreadable) -> UInt8 { try take(1).first! }

        mutating func uint32() throws(Unreadable) -> UInt32 {
            try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func uint64() throws(Unreadable) -> UInt64 {
            try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func string() throws(Unreadable) -> String {
            let count = Int(try uint32())
            let slice = try take(count)
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw Unreadable(offset: recordStart, reason: "text that is not UTF-8")
            }
            return text
        }

        mutating func optionalString() throws(Unreadable) -> String? {
            switch try byte() {
            case 0: return nil
            case 1: return try string()
            default: throw Unreadable(offset: recordStart, reason: "bad optional marker")
            }
        }

        mutating func optionalInt64() throws(Unreadable) -> Int64? {
            switch try byte() {
            case 0: return nil
            case 1: return Int64(bitPattern: try uint64())
            default: throw Unreadable(offset: recordStart, reason: "bad optional marker")
            }
        }
    }
}
