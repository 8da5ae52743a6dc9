#if canImport(Glibc)
import Glibc
#endif

/// A whole row (a version-3 ``FinishRecord`` with a start and no context changes: what a server's calls
/// log) read in place from the bytes its finish log holds, its texts as pointers into them: what a commit
/// binds to the insert without making a string, an array of values or a record per call
/// (``FinishJournal/apply(to:)``). Valid only while the bytes it was read from are.
struct LoggedRow {
    /// UTF-8 bytes inside the logged record.
    struct Text {
        let start: UnsafeRawPointer
        let count: Int

        /// Whether the bytes are `text`'s.
        func equals(_ text: StaticString) -> Bool {
            count == text.utf8CodeUnitCount && memcmp(start, text.utf8Start, count) == 0
        }
    }

    var finishedMilliseconds: Int64
    var durationMilliseconds: Double
    var startedMilliseconds: Int64?
    var workerPID: Int64?
    var status: Text
    var resultJSON: Text?
    var summary: Text?
    var errorKind: Text?
    var error: Text?
    var idempotencyKey: Text?
    var pluginVersion: Text?
    var pluginSHA256: Text?
    var callID: Text
    var sessionID: Text
    var messagePosition: Int64?
    var skillID: Text
    var argumentsJSON: Text
    var frontEnd: Text?
    var client: Text?

    /// The row of the record at `offset` of `bytes` (written by ``FinishRecordCoding/encode(_:into:)`` in
    /// this process, so not checked again), or nil when the record is not such a row (a finish of an
    /// existing row, or one with context changes: it is decoded whole instead); and where the next record
    /// starts.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (row: LoggedRow?, next: Int) {
        var reader = Reader(base: bytes.baseAddress!, position: offset)
        let length = Int(reader.uint32())
        let next = offset + FinishRecordCoding.headerSize + length
        reader.position = offset + FinishRecordCoding.headerSize
        guard reader.byte() == FinishRecordCoding.versionWithOrigin else { return (nil, next) }
        reader.position += 8  // the row id: 0 for a whole row
        let finished = Int64(bitPattern: reader.uint64())
        let duration = Double(bitPattern: reader.uint64())
        let started = reader.optionalInt64()
        let pid = reader.optionalInt64()
        let status = reader.text()
        let result = reader.optionalText(), summary = reader.optionalText(), errorKind = reader.optionalText()
        let error = reader.optionalText(), key = reader.optionalText(), version = reader.optionalText()
        let sha = reader.optionalText()
        guard reader.uint32() == 0 else { return (nil, next) }
        let callID = reader.text(), session = reader.text(), position = reader.optionalInt64()
        let skill = reader.text(), arguments = reader.text()
        let frontEnd = reader.optionalText(), client = reader.optionalText()
        return (
            LoggedRow(
                finishedMilliseconds: finished, durationMilliseconds: duration, startedMilliseconds: started, workerPID: pid,
                status: status, resultJSON: result, summary: summary, errorKind: errorKind, error: error, idempotencyKey: key,
                pluginVersion: version, pluginSHA256: sha, callID: callID, sessionID: session, messagePosition: position,
                skillID: skill, argumentsJSON: arguments, frontEnd: frontEnd, client: client),
            next
        )
    }

    /// Reads fields of a record this process encoded (little-endian, see ``FinishRecordCoding``).
    private struct Reader {
        let base: UnsafeRawPointer
        var position: Int

        mutating func byte() -> UInt8 {
            defer { position += 1 }
            return base.load(fromByteOffset: position, as: UInt8.self)
        }

        mutating func uint32() -> UInt32 {
            defer { position += 4 }
            return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        }

        mutating func uint64() -> UInt64 {
            defer { position += 8 }
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }

        mutating func optionalInt64() -> Int64? { byte() == 0 ? nil : Int64(bitPattern: uint64()) }

        mutating func text() -> Text {
            let count = Int(uint32())
            defer { position += count }
            return Text(start: base + position, count: count)
        }

        mutating func optionalText() -> Text? { byte() == 0 ? nil : text() }
    }
}
