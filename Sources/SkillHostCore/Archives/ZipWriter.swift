/// Writes a zip archive of stored (uncompressed) entries: what `skillhost pack` makes. Plugin libraries
/// are most of a package and compress poorly enough that a deflater would not pay for itself; any unzip,
/// and ``ZipArchive``, read stored entries. Entries carry a fixed date (1980-01-01) and mode 0644, so the
/// same files always make the same bytes.
struct ZipWriter {
    private var body: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    /// The largest archive this writer makes (no zip64).
    static let maximumSize = Int(UInt32.max)

    /// Appends a file.
    /// - Throws: ``HostError`` `invalidArguments` when the archive would pass 4 GiB or hold 65535 entries.
    mutating func add(_ path: String, _ bytes: [UInt8]) throws(HostError) {
        let name = Array(path.utf8)
        guard count < 0xFFFF, body.count + bytes.count + name.count + 30 < Self.maximumSize else {
            throw HostError(.invalidArguments, "cannot pack \(path): a package holds less than 4 GiB in fewer than 65535 files")
        }
        let crc = CRC32.checksum(bytes)
        let offset = body.count
        // Local file header.
        append32(&body, 0x0403_4B50)
        append16(&body, 20)  // version needed: 2.0
        append16(&body, 0x0800)  // flags: UTF-8 names
        append16(&body, 0)  // stored
        append16(&body, 0)  // time 00:00
        append16(&body, 0x21)  // date 1980-01-01
        append32(&body, crc)
        append32(&body, UInt32(bytes.count))
        append32(&body, UInt32(bytes.count))
        append16(&body, UInt16(name.count))
        append16(&body, 0)
        body += name
        body += bytes
        // Central directory entry.
        append32(&directory, 0x0201_4B50)
        append16(&directory, 0x0314)  // made by: Unix, 2.0
        append16(&directory, 20)
        append16(&directory, 0x0800)
        append16(&directory, 0)
        append16(&directory, 0)
        append16(&directory, 0x21)
        append32(&directory, crc)
        append32(&directory, UInt32(bytes.count))
        append32(&directory, UInt32(bytes.count))
        append16(&directory, UInt16(name.count))
        append16(&directory, 0)  // extra
        append16(&directory, 0)  // comment
        append16(&directory, 0)  // disk
        append16(&directory, 0)  // internal attributes
        append32(&directory, UInt32(0o100644) << 16)  // a regular file, rw-r--r--
        append32(&directory, UInt32(offset))
        directory += name
        count += 1
    }

    /// The whole archive.
    var bytes: [UInt8] {
        var end: [UInt8] = []
        append32(&end, 0x0605_4B50)
        append16(&end, 0)
        append16(&end, 0)
        append16(&end, UInt16(count))
        append16(&end, UInt16(count))
        append32(&end, UInt32(directory.count))
        append32(&end, UInt32(body.count))
        append16(&end, 0)
        return body + directory + end
    }

    private func append16(_ bytes: inout [UInt8], _ value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    private func append32(_ bytes: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
