import Foundation
@testable import SkillHostCore

/// The ELF check, through its real entry point (a file path). The input is written to one temporary file,
/// unlinked as soon as it is opened and reached as `/proc/self/fd/N`, so a fuzzer stopped by a signal
/// (which skips exit handlers) leaves no file behind.
private let elfDescriptor: Int32 = {
    let name = NSTemporaryDirectory() + "/skillhost-fuzz-elf-\(getpid()).so"
    let descriptor = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot create \(name)") }
    unlink(name)
    return descriptor
}()
private let elfPath = "/proc/self/fd/\(elfDescriptor)"

func fuzzELF(_ input: [UInt8]) {
    guard ftruncate(elfDescriptor, 0) == 0,
        input.withUnsafeBytes({ pwrite(elfDescriptor, $0.baseAddress, $0.count, 0) }) == input.count
    else { fatalError("cannot write \(elfPath)") }
    _ = try? ELFCheck.check(path: elfPath)
}
