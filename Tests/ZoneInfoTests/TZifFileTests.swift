import Testing
import ZoneInfo

/// The TZif reader is strict: every file of the system database reads, and each way a file can break
/// RFC 8536 is refused with what is wrong and the byte where it is.
@Suite struct TZifFileTests {
    /// A version 2 file: a minimal v1 block (one type, one designation byte: bytes 0–50), the v2 header
    /// (51–94), then the v2 data (transitions from byte 95) and the footer.
    static func file(
        version: UInt8 = UInt8(ascii: "2"), transitions: [Int64] = [100, 200], types: [UInt8] = [1, 0],
        ttinfos: [(Int32, UInt8, UInt8)] = [(3600, 0, 0), (7200, 1, 4)], chars: [UInt8] = Array("CET\0CEST\0".utf8),
        footer: String = "CET-1CEST,M3.5.0,M10.5.0/3", end: [UInt8] = [0x0A]
    ) -> [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be64(_ value: Int64) -> [UInt8] { be32(UInt32(UInt64(bitPattern: value) >> 32)) + be32(UInt32(UInt64(bitPattern: value) & 0xFFFF_FFFF)) }
        func header(_ counts: [Int]) -> [UInt8] {
            Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + counts.flatMap { be32(UInt32($0)) }
        }
        var bytes = header([0, 0, 0, 0, 1, 1]) + [0, 0, 0, 0, 0, 0] + [0]
        bytes += header([0, 0, 0, transitions.count, ttinfos.count, chars.count])
        bytes += transitions.flatMap(be64) + types
        for (offset, isDST, index) in ttinfos { bytes += be32(UInt32(bitPattern: offset)) + [isDST, index] }
        bytes += chars + [0x0A] + Array(footer.utf8) + end
        return bytes
    }

    @Test func everyZoneOfTheSystemDatabaseReads() throws {
        let database = ZoneInfoDirectory.system
        let names = database.zoneNames()
        #expect(names.count > 300, "the database index lists \(names.count) zones")
        for name in names {
            #expect(database.zone(named: name) != nil, "\(name) does not read as TZif")
        }
    }

    @Test func aWellFormedFileReadsWithItsTypesAndFooter() throws {
        let file = try TZifFile(parsing: Self.file())
        #expect(file.version == 2)
        #expect(file.transitions == [100, 200])
        #expect(file.types[1] == TZifFile.LocalTimeType(utcOffset: 7200, isDaylightSaving: true, abbreviation: "CEST"))
        #expect(file.footer?.daylight?.type.abbreviation == "CEST")
        let rules = ZoneRules(file)
        #expect(rules.localTimeType(at: 50).abbreviation == "CET")  // before the first transition: type 0
        #expect(rules.localTimeType(at: 150).abbreviation == "CEST")
    }

    @Test(arguments: [
        (Array("TZjf".utf8) + [UInt8](repeating: 0, count: 60), "not a TZif file (it does not start with \"TZif\") (at byte 0)"),
        (Array("TZif5".utf8) + [UInt8](repeating: 0, count: 60), "unknown TZif version byte 53 (at byte 4)"),
        (Array("TZif2".utf8), "the file ends inside the header (at byte 5)"),
        (TZifFileTests.file(end: []), "the footer does not end with a newline (at byte 161)"),
        (TZifFileTests.file(end: [0x0A, 0x41]), "bytes after the footer (at byte 162)"),
        (TZifFileTests.file(transitions: [200, 100]), "transition time 1 (100) is not after the one before (200) (at byte 103)"),
        (TZifFileTests.file(types: [1, 2]), "transition type 2 is not below typecnt (2) (at byte 112)"),
        (TZifFileTests.file(ttinfos: [(3600, 0, 0), (7200, 2, 4)]), "tt_isdst is 2; it must be 0 or 1 (at byte 123)"),
        (TZifFileTests.file(ttinfos: [(3600, 0, 0), (7200, 1, 9)]), "tt_desigidx 9 is not below charcnt (9) (at byte 124)"),
        (TZifFileTests.file(ttinfos: [(3600, 0, 0), (100_000, 1, 4)]), "the UTC offset 100000 s is more than a day (at byte 119)"),
        (TZifFileTests.file(chars: Array("CET\0CEST".utf8)), "the designation at index 4 has no terminating NUL (at byte 129)"),
        (TZifFileTests.file(footer: "CET-1CEST"), "the footer's TZ string: daylight saving time has no rule (\",start[/time],end[/time]\") (at byte 144)"),
        (TZifFileTests.file(footer: "CET-1CEST,M13.5.0,M10.5.0/3"), "the footer's TZ string: expected Mm.w.d with a month from 1 to 12 (at byte 145)"),
        (TZifFileTests.file(footer: "CET-1CEST,M3.5.0,M10.5.0/-3"), "the footer's TZ string: a signed transition time needs TZif version 3 (at byte 160)"),
    ])
    func malformedFilesAreRefusedWithTheByte(bytes: [UInt8], message: String) {
        #expect(throws: (any Error).self) { try TZifFile(parsing: bytes) }
        do {
            _ = try TZifFile(parsing: bytes)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aZeroTypeCountIsRefused() {
        var bytes = Self.file()
        bytes[39] = 0  // the v1 header's typecnt
        #expect(throws: TZifError("typecnt is 0; a TZif file has at least one local time type", at: 36)) { try TZifFile(parsing: bytes) }
    }

    @Test func namesThatAreNotZonesAreNotLooked() {
        for name in ["../etc/passwd", "Europe/../Europe/Paris", "/etc/passwd", "posixrules", "right/UTC", "posix/Europe/Paris", "localtime", "", "Europe//Paris", "a b"] {
            #expect(!ZoneInfoDirectory.isZoneName(name), "\(name)")
        }
        for name in ["Europe/Paris", "Etc/GMT+5", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT-14"] {
            #expect(ZoneInfoDirectory.isZoneName(name), "\(name)")
        }
        #expect(ZoneInfoDirectory.system.zone(named: "../../etc/passwd") == nil)
    }
}
