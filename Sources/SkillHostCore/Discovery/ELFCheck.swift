/// Structural checks of a plugin file before anything loads it: reads only bytes, runs no code.
///
/// A file passes when it is a 64-bit little-endian ELF shared object (`ET_DYN` without a `PT_INTERP`
/// program header, so PIE executables are refused) for this machine, whose headers and loadable segments
/// all lie inside the file (a truncated library makes `dlopen` die with SIGBUS).
public enum ELFCheck {
    /// `e_machine` of the machine the host runs on.
    public static var hostMachine: UInt16 {
        #if arch(x86_64)
        return 62
        #elseif arch(arm64)
        return 183
        #elseif arch(riscv64)
        return 243
        #else
        return 0
        #endif
    }

    /// Checks the file at `path`.
    /// - Throws: ``HostError`` of kind `invalidPlugin` (or `notFound`) naming the file, what is wrong and
    ///   how to fix it.
    public static func check(path: String) throws(HostError) {
        let size = try Posix.status(ofPath: path).size
        let header = try Posix.readPrefix(ofFile: path, count: 64)
        try checkHeader(header, fileSize: size, path: path)
        let programHeaderOffset = Int(clamping: read64(header, 32))
        let programHeaderCount = Int(read16(header, 56))
        let programHeaders = try Posix.readPrefix(
            ofFile: path, count: programHeaderOffset + programHeaderCount * 56)
        try checkSegments(programHeaders, offset: programHeaderOffset, count: programHeaderCount, fileSize: size,
                          path: path)
    }

    /// The same checks on a library's bytes (a plugin package's entry), for `machine` (an `e_machine`).
    /// - Throws: ``HostError`` `invalidPlugin`, naming `path`.
    static func check(bytes: [UInt8], path: String, machine: UInt16) throws(HostError) {
        try checkHeader(Array(bytes.prefix(64)), fileSize: Int64(bytes.count), path: path, machine: machine, placed: true)
        try checkSegments(
            bytes, offset: Int(clamping: read64(bytes, 32)), count: Int(read16(bytes, 56)), fileSize: Int64(bytes.count),
            path: path)
    }

    /// The `e_machine` of an ELF file's first bytes; nil when they are not a 64-bit ELF header.
    static func machine(of header: [UInt8]) -> UInt16? {
        guard header.count >= 20, header[0...3].elementsEqual([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2 else { return nil }
        return read16(header, 18)
    }

    /// The architecture name of an `e_machine` (`x86_64`, `aarch64`, `riscv64`), nil for another.
    public static func architecture(ofMachine machine: UInt16) -> String? {
        switch machine {
        case 62: "x86_64"
        case 183: "aarch64"
        case 243: "riscv64"
        default: nil
        }
    }

    /// Checks the 64-byte ELF header and that the header tables fit in `fileSize` bytes.
    /// - Parameter placed: the file was put where a library for `expected` goes (a package's entry), rather
    ///   than being about to run on this host.
    static func checkHeader(
        _ header: [UInt8], fileSize: Int64, path: String, machine expected: UInt16 = hostMachine, placed: Bool = false
    ) throws(HostError) {
        func invalid(_ problem: String) -> HostError {
            HostError(.invalidPlugin, "\(path): \(problem)")
        }
        guard header.count >= 4, header[0...3].elementsEqual([0x7F, 0x45, 0x4C, 0x46]) else {
            throw invalid("not an ELF file (bad magic); a plugin must be a shared library built with -shared")
        }
        guard header.count == 64 else {
            throw invalid("truncated: \(fileSize) bytes is shorter than the 64-byte ELF header; rebuild or recopy it")
        }
        guard header[4] == 2 else { throw invalid("32-bit ELF file; build the plugin for 64-bit") }
        guard header[5] == 1 else { throw invalid("big-endian ELF file; build the plugin for this machine") }
        let type = read16(header, 16)
        guard type == 3 else {
            let kind = type == 2 ? "an executable" : type == 1 ? "a relocatable object (.o)" : "ELF type \(type)"
            throw invalid("is \(kind), not a shared library; link it with -shared")
        }
        let machine = read16(header, 18)
        guard machine == expected else {
            let built = architecture(ofMachine: machine).map { "\($0) (ELF machine \(machine))" } ?? "ELF machine \(machine)"
            let wanted = architecture(ofMachine: expected).map { "\($0) (ELF machine \(expected))" } ?? "ELF machine \(expected)"
            throw invalid(placed
                ? "built for \(built), not \(wanted) as its place says"
                : "built for \(built), this host is \(wanted); rebuild it for this machine")
        }
        let programHeaderOffset = read64(header, 32)
        let sectionHeaderOffset = read64(header, 40)
        let programHeaderSize = read16(header, 54)
        let programHeaderCount = read16(header, 56)
        let sectionHeaderSize = read16(header, 58)
        let sectionHeaderCount = read16(header, 60)
        guard programHeaderCount > 0, programHeaderSize == 56 else {
            throw invalid("has no valid program headers; it is not a loadable shared library")
        }
        let size = UInt64(max(fileSize, 0))
        guard programHeaderOffset <= size,
            UInt64(programHeaderCount) * 56 <= size - programHeaderOffset
        else {
            throw invalid("truncated: program headers end past the file's \(fileSize) bytes; rebuild or recopy it")
        }
        if sectionHeaderCount > 0 {
            let tableSize = UInt64(sectionHeaderCount) * UInt64(sectionHeaderSize)
            guard sectionHeaderOffset <= size, tableSize <= size - sectionHeaderOffset else {
                throw invalid("truncated: section headers end past the file's \(fileSize) bytes; rebuild or recopy it")
            }
        }
    }

    /// Checks the program headers: no interpreter (that is an executable), a dynamic section, and every
    /// loadable segment inside the file.
    static func checkSegments(
        _ bytes: [UInt8], offset: Int, count: Int, fileSize: Int64, path: String
    ) throws(HostError) {
        guard bytes.count >= offset + count * 56 else {
            throw HostError(.invalidPlugin, "\(path): truncated inside its program headers; rebuild or recopy it")
        }
        var hasDynamic = false
        for index in 0..<count {
            let base = offset + index * 56
            let type = read32(bytes, base)
            let fileOffset = read64(bytes, base + 8)
            let fileBytes = read64(bytes, base + 32)
            switch type {
            case 3:
                throw HostError(.invalidPlugin,
                    "\(path): is an executable (it has a program interpreter), not a shared library; link it with -shared")
            case 2:
                hasDynamic = true
            default:
                break
            }
            if type == 1 || type == 2 {
                let (end, overflow) = fileOffset.addingReportingOverflow(fileBytes)
                guard !overflow, end <= UInt64(max(fileSize, 0)) else {
                    throw HostError(.invalidPlugin,
                        "\(path): truncated: a loadable segment ends at byte \(end) but the file has \(fileSize); rebuild or recopy it")
                }
            }
        }
        guard hasDynamic else {
            throw HostError(.invalidPlugin, "\(path): has no dynamic section; it is not a shared library")
        }
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    private static func read64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
}
