import Foundation
@testable import SkillHostCore

/// The ELF check, through its real entry point (a file path). The input is written to one POSIX shared-memory
/// file (tmpfs), unlinked as soon as it is opened and reached as `/proc/self/fd/N`: a fuzzer stopped by a
/// signal (which skips exit handlers) leaves no file behind, and no input waits on a disk file system's
/// journal (a file in /tmp on ext4 made each run sleep in `ftruncate`: 270 runs a second at nice 19).
private let elfDescriptor: Int32 = {
    let name = "/skillhost-fuzz-elf-\(getpid())"
    let descriptor = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot create shared-memory file \(name)") }
    shm_unlink(name)
    return descriptor
}()
private let elfPath = "/proc/self/fd/\(elfDescriptor)"

func fuzzELF(_ input: [UInt8]) {
    guard ftruncate(elfDescriptor, 0) == 0,
        input.withUnsafeBytes({ pwrite(elfDescriptor, $0.baseAddress, $0.count, 0) }) == input.count
    else { fatalError("cannot write \(elfPath)") }
    _ = try? ELFCheck.check(path: elfPath)
}
