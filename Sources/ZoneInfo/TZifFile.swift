/// One TZif file (RFC 8536: what `/usr/share/zoneinfo/<Area>/<City>` holds), read strictly.
///
/// Version 1 files are read from their 32-bit block; version 2 and later from their 64-bit block and
/// footer (the v1 block is checked for framing and skipped). Every count, index, offset and designation is
/// checked: a file that breaks a rule of RFC 8536 section 3 is refused with a ``TZifError`` naming the byte.
public struct TZifFile: Equatable, Sendable {
    /// One local time type ("ttinfo"): the offset from UTC, whether it is daylight saving time, the
    /// abbreviation ("CEST").
    public struct LocalTimeType: Equatable, Sendable {
        /// Seconds east of UTC.
        public var utcOffset: Int32
        /// Whether this is daylight saving time.
        public var isDaylightSaving: Bool
        /// The time zone designation, e.g. "CET" or "+09".
        public var abbreviation: String

        public init(utcOffset: Int32, isDaylightSaving: Bool, abbreviation: String) {
            self.utcOffset = utcOffset
            self.isDaylightSaving = isDaylightSaving
            self.abbreviation = abbreviation
        }
    }

    /// One leap-second record: at `occurrence` (seconds since 1970, UTC) the total correction becomes `correction`.
    public struct LeapSecond: Equatable, Sendable {
        public var occurrence: Int64
        public var correction: Int32
    }

    /// The largest file read (real ones are under 4 KiB).
    public static let maximumSize = 1 << 20

    /// The version: 1, 2, 3 or 4.
    public let version: Int
    /// Transition instants (seconds since 1970, UTC), strictly ascending.
    public let transitions: [Int64]
    /// For each transition, the index in ``types`` of the local time type that starts there.
    public let transitionTypes: [UInt8]
    /// The local time types; never empty.
    public let types: [LocalTimeType]
    /// Leap-second records (only the `right/` zones have them).
    public let leapSeconds: [LeapSecond]
    /// The footer's TZ string, for instants after the last transition; nil in version 1 files or when empty.
    public let footer: PosixTimeZoneRule?

    /// Parses a TZif file.
    /// - Throws: ``TZifError`` naming the first rule the bytes break and where.
    public init(parsing bytes: [UInt8]) throws(TZifError) {
        guard bytes.count <= Self.maximumSize else {
            throw TZifError("the file has \(bytes.count) bytes; a TZif file has at most \(Self.maximumSize)", at: 0)
        }
        var reader = ByteReader(bytes)
        let first = try Header(&reader)
        guard first.version >= 2 else {
            let block = try DataBlock(&reader, header: first, timeSize: 4)
            guard reader.isAtEnd else { throw TZifError("bytes after the end of a version 1 file", at: reader.offset) }
            version = 1
            (transitions, transitionTypes, types, leapSeconds, footer) = (block.transitions, block.transitionTypes, block.types, block.leapSeconds, nil)
            return
        }
        try reader.skip(first.dataBlockSize(timeSize: 4), what: "the version 1 data block")
        let headerOffset = reader.offset
        let second = try Header(&reader)
        guard second.version == first.version else {
            throw TZifError("the second header says version \(second.version), the first \(first.version)", at: headerOffset + 4)
        }
        let block = try DataBlock(&reader, header: second, timeSize: 8)
        // Footer: "\n" TZ string "\n".
        guard try reader.byte(what: "the footer") == 0x0A else {
            throw TZifError("the footer does not start with a newline", at: reader.offset - 1)
        }
        let footerStart = reader.offset
        guard let end = bytes[footerStart...].firstIndex(of: 0x0A) else {
            throw TZifError("the footer does not end with a newline", at: bytes.count)
        }
        guard end == bytes.count - 1 else { throw TZifError("bytes after the footer", at: end + 1) }
        let text = bytes[footerStart..<end]
        guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw TZifError("the footer's TZ string holds a byte that is not printable ASCII", at: footerStart)
        }
        do {
            footer = text.isEmpty ? nil : try PosixTimeZoneRule(parsing: String(decoding: text, as: UTF8.self), allowingExtensions: first.version >= 3)
        } catch {
            throw TZifError("the footer's TZ string: \(error.message)", at: footerStart + error.offset)
        }
        version = first.version
        (transitions, transitionTypes, types, leapSeconds) = (block.transitions, block.transitionTypes, block.types, block.leapSeconds)
    }
}

extension TZifFile {
    /// The 44-byte header: magic, version and the six counts.
    struct Header {
        var version: Int
        var isUTCCount: Int, isStandardCount: Int, leapCount: Int, timeCount: Int, typeCount: Int, charCount: Int

        init(_ reader: inout ByteReader) throws(TZifError) {
            let start = reader.offset
            guard try reader.bytes(4, what: "the header").elementsEqual("TZif".utf8) else {
                throw TZifError("not a TZif file (it does not start with \"TZif\")", at: start)
            }
            switch try reader.byte(what: "the header") {
            case 0: version = 1
            case UInt8(ascii: "2"): version = 2
            case UInt8(ascii: "3"): version = 3
            case UInt8(ascii: "4"): version = 4
            case let other: throw TZifError("unknown TZif version byte \(other)", at: start + 4)
            }
            try reader.skip(15, what: "the header")
            var counts: [Int] = []
            for _ in 0..<6 {
                let value = try reader.uint32(what: "the header")
                // Real files count in the hundreds; anything beyond the size limit cannot fit anyway.
                guard value <= UInt32(TZifFile.maximumSize) else {
                    throw TZifError("a count of \(value) is more than the file can hold", at: reader.offset - 4)
                }
                counts.append(Int(value))
            }
            (isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount) = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
            guard typeCount >= 1 else { throw TZifError("typecnt is 0; a TZif file has at least one local time type", at: start + 36) }
            guard charCount >= 1 else { throw TZifError("charcnt is 0; a TZif file has at least one designation byte", at: start + 40) }
            guard isUTCCount == 0 || isUTCCount == typeCount else {
                throw TZifError("isutcnt is \(isUTCCount); it must be 0 or typecnt (\(typeCount))", at: start + 20)
            }
            guard isStandardCount == 0 || isStandardCount == typeCount else {
                throw TZifError("isstdcnt is \(isStandardCount); it must be 0 or typecnt (\(typeCount))", at: start + 24)
            }
        }

        func dataBlockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    /// One data block, checked against the rules of RFC 8536 section 3.2.
    struct DataBlock {
        var transitions: [Int64] = []
        var transitionTypes: [UInt8] = []
        var types: [LocalTimeType] = []
        var leapSeconds: [LeapSecond] = []

        init(_ reader: inout ByteReader, header: Header, timeSize: Int) throws(TZifError) {
            guard reader.remaining >= header.dataBlockSize(timeSize: timeSize) else {
                throw TZifError("the file ends inside its data block (\(header.dataBlockSize(timeSize: timeSize)) bytes announced, \(reader.remaining) left)", at: reader.offset)
            }
            transitions.reserveCapacity(header.timeCount)
            for index in 0..<header.timeCount {
                let at = reader.offset
                let time = timeSize == 4 ? Int64(Int32(bitPattern: try reader.uint32(what: "transition times"))) : try reader.int64(what: "transition times")
                if index > 0, time <= transitions[index - 1] {
                    throw TZifError("transition time \(index) (\(time)) is not after the one before (\(transitions[index - 1]))", at: at)
                }
                transitions.append(time)
            }
            for _ in 0..<header.timeCount {
                let at = reader.offset
                let type = try reader.byte(what: "transition types")
                guard Int(type) < header.typeCount else {
                    throw TZifError("transition type \(type) is not below typecnt (\(header.typeCount))", at: at)
                }
                transitionTypes.append(type)
            }
            var raw: [(offset: Int32, isDST: Bool, index: Int, at: Int)] = []
            for _ in 0..<header.typeCount {
                let at = reader.offset
                let offset = Int32(bitPattern: try reader.uint32(what: "local time types"))
                guard offset != Int32.min else { throw TZifError("a UTC offset of -2^31 is not allowed", at: at) }
                // RFC 8536: -89999 ... 93599 (within a day of UTC, as POSIX TZ strings allow).
                guard (-89_999...93_599).contains(offset) else {
                    throw TZifError("the UTC offset \(offset) s is more than a day", at: at)
                }
                let isDST = try reader.byte(what: "local time types")
                guard isDST <= 1 else { throw TZifError("tt_isdst is \(isDST); it must be 0 or 1", at: at + 4) }
                let index = Int(try reader.byte(what: "local time types"))
                guard index < header.charCount else {
                    throw TZifError("tt_desigidx \(index) is not below charcnt (\(header.charCount))", at: at + 5)
                }
                raw.append((offset, isDST == 1, index, at))
            }
            let charsAt = reader.offset
            let chars = Array(try reader.bytes(header.charCount, what: "designations"))
            for entry in raw {
                guard let end = chars[entry.index...].firstIndex(of: 0) else {
                    throw TZifError("the designation at index \(entry.index) has no terminating NUL", at: charsAt + entry.index)
                }
                let name = chars[entry.index..<end]
                guard name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                    throw TZifError("the designation at index \(entry.index) holds a byte that is not printable ASCII", at: charsAt + entry.index)
                }
                types.append(LocalTimeType(utcOffset: entry.offset, isDaylightSaving: entry.isDST, abbreviation: String(decoding: name, as: UTF8.self)))
            }
            for index in 0..<header.leapCount {
                let at = reader.offset
                let occurrence = timeSize == 4 ? Int64(Int32(bitPattern: try reader.uint32(what: "leap seconds"))) : try reader.int64(what: "leap seconds")
                let correction = Int32(bitPattern: try reader.uint32(what: "leap seconds"))
                if index == 0 {
                    guard occurrence >= 0 else { throw TZifError("the first leap second occurs before 1970", at: at) }
                } else {
                    let previous = leapSeconds[index - 1]
                    // Subtracted with overflow checking: a hostile file may put the next one near Int64.min.
                    let (gap, overflow) = occurrence.subtractingReportingOverflow(previous.occurrence)
                    guard !overflow, gap >= 2_419_199 else {
                        throw TZifError("leap second \(index) is less than 28 days after the one before", at: at)
                    }
                    guard abs(Int64(correction) - Int64(previous.correction)) == 1 else {
                        throw TZifError("leap second \(index) changes the correction by other than one second", at: at + timeSize)
                    }
                }
                leapSeconds.append(LeapSecond(occurrence: occurrence, correction: correction))
            }
            var standard: [UInt8] = []
            for _ in 0..<header.isStandardCount {
                let at = reader.offset
                let value = try reader.byte(what: "standard/wall indicators")
                guard value <= 1 else { throw TZifError("a standard/wall indicator is \(value); it must be 0 or 1", at: at) }
                standard.append(value)
            }
            for index in 0..<header.isUTCCount {
                let at = reader.offset
                let value = try reader.byte(what: "UT/local indicators")
                guard value <= 1 else { throw TZifError("a UT/local indicator is \(value); it must be 0 or 1", at: at) }
                if value == 1, standard.isEmpty || standard[index] != 1 {
                    throw TZifError("local time type \(index) is UT but not standard time", at: at)
                }
            }
        }
    }
}

/// Reads big-endian numbers from bytes, refusing to read past the end.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func byte(what: String) throws(TZifError) -> UInt8 {
        guard offset < bytes.count else { throw TZifError("the file ends inside \(what)", at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bytes(_ count: Int, what: String) throws(TZifError) -> ArraySlice<UInt8> {
        guard remaining >= count else { throw TZifError("the file ends inside \(what)", at: bytes.count) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func skip(_ count: Int, what: String) throws(TZifError) {
        guard remaining >= count else { throw TZifError("the file ends inside \(what)", at: bytes.count) }
        offset += count
    }

    mutating func uint32(what: String) throws(TZifError) -> UInt32 {
        let slice = try bytes(4, what: what)
        return slice.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func int64(what: String) throws(TZifError) -> Int64 {
        let slice = try bytes(8, what: what)
        return Int64(bitPattern: slice.reduce(0) { $0 << 8 | UInt64($1) })
    }
}
