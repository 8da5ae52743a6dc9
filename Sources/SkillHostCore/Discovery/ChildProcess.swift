#if canImport(Glibc)
import Glibc
#endif

/// Runs a helper process to completion with a time limit, collecting its stdout and the tail of its stderr.
struct ChildProcess {
    /// How it went.
    struct Outcome {
        /// How it ended; nil when it was killed for passing the time limit.
        var termination: Posix.Termination?
        /// Everything it wrote to stdout (up to ``maximumOutput``).
        var output: [UInt8]
        /// The last bytes it wrote to stderr.
        var errorTail: [UInt8]
        /// Whether it was killed for passing the time limit.
        var timedOut: Bool { termination == nil }
    }

    /// The most stdout kept; the child is killed when it writes more.
    static let maximumOutput = 16 << 20
    /// How much of stderr is kept (the end).
    static let errorTailBytes = 4096

    var executable: String
    var arguments: [String]
    var timeout: Double
    /// Its whole environment (`NAME=value`; nothing of the host's is inherited).
    var environment: [String]
    /// Whether it starts inside namespaces of its own (``NamespaceLauncher``).
    var namespaces = false

    /// Starts the process and waits for it, killing it (SIGKILL) once `timeout` seconds pass.
    ///
    /// With `onLine`, each complete stdout line (without its newline) is handed over as it arrives and
    /// restarts the time limit (a batch child reporting file after file: the limit is per report); such
    /// lines are not kept in ``Outcome/output``, which then holds only an unfinished last line.
    /// - Throws: ``HostError`` of kind `io` when it cannot be started.
    func run(onLine: ((ArraySlice<UInt8>) -> Void)? = nil) throws(HostError) -> Outcome {
        let (program, words) = NamespaceLauncher.commandLine(executable, arguments, namespaces: namespaces)
        let child = try Posix.spawnPiped(
            program, arguments: words, pipeStandardInput: false, standardError: .pipe,
            environment: environment)
        let pid = child.pid
        let output = child.output
        let errors = child.errors
        defer {
            close(output)
            close(errors)
        }
        var collected: [UInt8] = []
        var errorTail: [UInt8] = []
        var open: Set<Int32> = [output, errors]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var deadline = Posix.monotonicSeconds() + timeout
        var killed = false
        while !open.isEmpty {
            let remaining = deadline - Posix.monotonicSeconds()
            if remaining <= 0 {
                Posix.sendSignal(SIGKILL, to: pid)
                killed = true
                break
            }
            for fd in Posix.waitReadable(Array(open), milliseconds: Int32(min(remaining, 1) * 1000) + 1) {
                let count = Posix.readSome(fd, into: &buffer)
                if count <= 0 {
                    open.remove(fd)
                } else if fd == output {
                    collected.append(contentsOf: buffer[0..<count])
                    if let onLine, let end = collected.lastIndex(of: UInt8(ascii: "\n")) {
                        for line in collected[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                            onLine(line)
                        }
                        collected.removeSubrange(...end)
                        errorTail.removeAll()  // what it wrote to stderr before this report is not news
                        deadline = Posix.monotonicSeconds() + timeout
                    }
                    if collected.count > Self.maximumOutput {
                        Posix.sendSignal(SIGKILL, to: pid)
                        open.remove(fd)
                    }
                } else {
                    errorTail.append(contentsOf: buffer[0..<count])
                    if errorTail.count > Self.errorTailBytes { errorTail.removeFirst(errorTail.count - Self.errorTailBytes) }
                }
            }
        }
        // Both pipes are closed (or we killed it): the process has exited or is about to.
        var termination: Posix.Termination?
        while true {
            if let ended = Posix.reap(pid, blocking: killed) {
                termination = ended
                break
            }
            if Posix.monotonicSeconds() > deadline {
                Posix.sendSignal(SIGKILL, to: pid)
                killed = true
                continue
            }
            usleep(1000)
        }
        return Outcome(termination: killed ? nil : termination, output: collected, errorTail: errorTail)
    }
}
