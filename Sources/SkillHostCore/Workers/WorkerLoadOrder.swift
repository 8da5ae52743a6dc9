#if canImport(Glibc)
import Glibc
#endif

/// The start-up step of a worker started ahead of need (a spare, ``SpareWorker``): the host spawns
/// `skillhost __worker --await-load` while it still checks the catalog, trust and permissions, and once the
/// call passed every gate it sends one ``WorkerFrame/Kind/load`` frame with the words that would otherwise
/// have followed `__worker` on the command line (plugin file, limits, sandbox). The worker reads it before
/// anything else (before the sandbox, before any thread starts) and then starts exactly as
/// `skillhost __worker WORDS…` does; a spare that gets end of file instead exits 0 without loading anything,
/// so a refused call never loads the plugin.
///
/// The order also carries the worker's environment (``WorkerEnvironment``: its `HOME`, `TMPDIR` and the
/// variables the user granted), which a spawned worker gets from `posix_spawn`: never on a command line, where
/// any process could read it.
///
/// Payload (``FrameEncoder``): u32 count, then `count` length-prefixed UTF-8 strings (the words); u32 count,
/// then that many `NAME=value` strings (the environment); nothing after them.
package struct WorkerLoadOrder: Equatable, Sendable {
    /// The flag that makes `__worker` wait for this frame on stdin instead of taking its words from argv.
    package static let awaitFlag = "--await-load"
    /// Most words a load order may carry (a sandbox with many paths stays far below it).
    static let maximumWords = 4096

    /// The words after `__worker`: the plugin file first, then the options.
    package var workerArguments: [String]
    /// `NAME=value` entries the worker sets before it starts.
    package var environment: [String]

    package init(workerArguments: [String], environment: [String] = []) {
        self.workerArguments = workerArguments
        self.environment = environment
    }

    /// Decodes a payload, refusing anything but a plugin path followed by options.
    init(payload: UnsafeRawBufferPointer) throws(FrameError) {
        var decoder = FrameDecoder(payload)
        let count = Int(try decoder.uint32())
        guard (1...Self.maximumWords).contains(count) else {
            throw FrameError("a load order carries \(count) words; expected 1 to \(Self.maximumWords) (the plugin file, then options)")
        }
        var words: [String] = []
        words.reserveCapacity(count)
        for _ in 0..<count { words.append(try decoder.string()) }
        let entries = Int(try decoder.uint32())
        guard entries <= Self.maximumWords else {
            throw FrameError("a load order carries \(entries) environment entries; expected at most \(Self.maximumWords)")
        }
        var environment: [String] = []
        for _ in 0..<entries {
            let entry = try decoder.string()
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw FrameError("a load order's environment entry must be NAME=value, not '\(entry.prefix(40))'")
            }
            environment.append(entry)
        }
        guard decoder.isAtEnd else { throw FrameError("a load order has bytes after its \(count) words and \(entries) environment entries") }
        guard words[0].hasPrefix("/") else {
            throw FrameError("a load order must start with the plugin's absolute path, not '\(words[0])'")
        }
        workerArguments = words
        self.environment = environment
    }

    /// The whole frame.
    func encodedFrame() -> [UInt8] {
        var encoder = FrameEncoder(.load)
        encoder.append(UInt32(workerArguments.count))
        for word in workerArguments { encoder.append(word) }
        encoder.append(UInt32(environment.count))
        for entry in environment { encoder.append(entry) }
        return encoder.finish()
    }

    /// How waiting for a load order ended.
    package enum Outcome: Equatable {
        /// The order came: start as `__worker` with these words.
        case load(WorkerLoadOrder)
        /// The host closed the pipe first (the call was refused, or the host ended): exit 0, load nothing.
        case closed
        /// Something else came; the message says what. Exit with ``WorkerServer/protocolFailureStatus``.
        case broken(String)
    }

    /// Worker side: blocks until the host's load order arrives on descriptor `input` (stdin). Reads exactly
    /// one frame (the host sends nothing else before the worker answers `ready`).
    package static func receive(from input: Int32 = 0) -> Outcome {
        let channel = FrameChannel(input: input, output: -1)
        do {
            let order = try channel.receive(deadline: nil) { kind, payload throws(FrameError) -> WorkerLoadOrder in
                guard kind == .load else { throw FrameError("the host sent a \(kind) frame before the load order") }
                return try WorkerLoadOrder(payload: payload)
            }
            return .load(order)
        } catch .closed {
            return .closed
        } catch .corrupt(let error) {
            return .broken("bad load order: \(error.description)")
        } catch {
            return .broken("cannot read the load order: \(error)")
        }
    }

    /// The command line the worker runs with: `arguments` itself unless it is `__worker --await-load` (with
    /// `--sb-ns 0|1`, whether the spare entered its namespaces at start), in which case the load order is
    /// read from stdin first. Ends the process when none comes (exit 0 on end
    /// of file, ``WorkerServer/protocolFailureStatus`` on anything else, with one line on stderr).
    package static func resolve(commandLine arguments: [String]) -> [String] {
        guard arguments.count >= 2, arguments[0] == "__worker", arguments[1] == awaitFlag,
            arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--sb-ns")
        else { return arguments }
        switch receive() {
        case .load(let order):
            for entry in order.environment { putenv(strdup(entry)) }
            return ["__worker"] + order.workerArguments
        case .closed:
            exit(0)
        case .broken(let message):
            PluginLog.write(label: "worker", level: 3, text: message)
            exit(WorkerServer.protocolFailureStatus)
        }
    }
}
