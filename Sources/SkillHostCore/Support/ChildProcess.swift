#if canImport(Glibc)
import Glibc
#endif

/// Runs a process to completion with a time limit, feeding it stdin and collecting its stdout and the tail of
/// its stderr: the scanner child, and a skill's script run confined (``SkillScriptRunner``).
struct ChildProcess {
    /// How it went.
    struct Outcome {
        /// How it ended; nil when it was killed for passing the time limit.
        var termination: Posix.Termination?
        /// What it wrote to stdout (its first ``ChildProcess/outputLimit`` bytes).
        var output: [UInt8]
        /// The last bytes it wrote to stderr (at most ``ChildProcess/errorTailBytes``).
        var errorTail: [UInt8]
        /// Whether stdout went past ``ChildProcess/outputLimit`` (the rest was read and dropped).
        var outputCut = false
        /// Whether stderr was longer than what ``errorTail`` keeps.
        var errorCut = false
        /// Whether it was killed for passing the time limit.
        var timedOut: Bool { termination == nil }
    }

    /// The most stdout the scanner child may write; it is killed when it writes more.
    static let maximumOutput = 16 << 20

    var executable: String
    var arguments: [String]
    var timeout: Double
    /// Its whole environment (`NAME=value`; nothing of the host's is inherited).
    var environment: [String]
    /// Whether it starts inside namespaces of its own (``NamespaceLauncher``; false for a command line that
    /// already goes through `skillhost-sandbox`).
    var namespaces = false
    /// Bytes written to its stdin, which is then closed; nil: its stdin is /dev/null.
    var input: [UInt8]? = nil
    /// The most stdout kept.
    var outputLimit = ChildProcess.maximumOutput
    /// Whether writing more than ``outputLimit`` kills it (the scanner) or only stops the keeping (a script).
    var killsPastOutputLimit = true
    /// How much of stderr is kept (the end).
    var errorTailBytes = 4096

    /// Starts the process and waits for it, killing it (SIGKILL) once `timeout` seconds pass.
    ///
    /// With `onLine`, each complete stdout line (without its newline) is handed over as it arrives and
    /// restarts the time limit (a batch child reporting file after file: the limit is per report); such
    /// lines are not kept in ``Outcome/output``, which then holds only an unfinished last line.
    /// - Throws: ``HostError`` of kind `io` when it cannot be started.
    func run(onLine: ((ArraySlice<UInt8>) -> Void)? = nil) throws(HostError) -> Outcome {
        let (program, words) = NamespaceLauncher.commandLine(executable, arguments, namespaces: namespaces)
        let child = try Posix.spawnPiped(
            program, arguments: words, pipeStandardInput: input != nil, standardError: .pipe,
            environment: environment)
        let pid = child.pid
        let output = child.output
        let errors = child.errors
        var stdin = child.input
        defer {
            close(output)
            close(errors)
            if stdin >= 0 { close(stdin) }
        }
        var pending = input ?? []
        if stdin >= 0 {
            _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
            if pending.isEmpty {
                close(stdin)
                stdin = -1
            }
        }
        var outcome = Outcome(termination: nil, output: [], errorTail: [])
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
            // Feed stdin as the process takes it (a full pipe must not block the reading of its output).
            if stdin >= 0 {
                let written = pending.withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
                if written > 0 { pending.removeFirst(written) }
                if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
                    close(stdin)
                    stdin = -1
                }
            }
            let wait = stdin >= 0 ? 10 : Int32(min(remaining, 1) * 1000) + 1
            for fd in Posix.waitReadable(Array(open), milliseconds: wait) {
                let count = Posix.readSome(fd, into: &buffer)
                if count <= 0 {
                    open.remove(fd)
                } else if fd == output {
                    let room = max(0, outputLimit - outcome.output.count)
                    outcome.output.append(contentsOf: buffer[0..<min(count, room)])
                    if count > room { outcome.outputCut = true }
                    if let onLine, let end = outcome.output.lastIndex(of: UInt8(ascii: "\n")) {
                        for line in outcome.output[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                            onLine(line)
                        }
                        outcome.output.removeSubrange(...end)
                        outcome.errorTail.removeAll()  // what it wrote to stderr before this report is not news
                        deadline = Posix.monotonicSeconds() + timeout
                    }
                    if outcome.outputCut, killsPastOutputLimit {
                        Posix.sendSignal(SIGKILL, to: pid)
                        open.remove(fd)
                    }
                } else {
                    outcome.errorTail.append(contentsOf: buffer[0..<count])
                    if outcome.errorTail.count > errorTailBytes {
                        outcome.errorTail.removeFirst(outcome.errorTail.count - errorTailBytes)
                        outcome.errorCut = true
                    }
                }
            }
        }
        // Both pipes are closed (or we killed it): the process has exited or is about to.
        while true {
            if let ended = Posix.reap(pid, blocking: killed) {
                outcome.termination = killed ? nil : ended
                break
            }
            if Posix.monotonicSeconds() > deadline {
                Posix.sendSignal(SIGKILL, to: pid)
                killed = true
                continue
            }
            usleep(1000)
        }
        return outcome
    }
}
