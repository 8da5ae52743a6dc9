import Foundation
@testable import SkillHostCore

/// The ELF check, through its real entry point (a file): the input is written to a temporary file.
private let elfPath = NSTemporaryDirectory() + "/skillhost-fuzz-elf-\(getpid()).so"

func fuzzELF(_ input: [UInt8]) {
    let fd = open(elfPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("cannot create \(elfPath)") }
    input.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
    close(fd)
    _ = try? ELFCheck.check(path: elfPath)
}
