#if canImport(Glibc)
import Glibc
#endif

/// Where a worker finds its channels: request frames on its stdin (0), replies on its stdout (1), a pipe the
/// host reads on 2 (never the user's terminal: ``PluginOutputCollector``), and the shared call slot, when
/// there is one, on descriptor 3
/// (``SharedCallSlot/workerDescriptor``), named by `SKILLHOST_WORKER_CHANNEL`. Both ways of starting a worker
/// set it up from here: a spawn (``spawn(_:arguments:)``) and the spare forked at start-up
/// (``installInForkedChild(frameInput:frameOutput:slot:)``).
enum WorkerDescriptors {
    /// Spawns `executable arguments` with a new shared slot (nil when memfds are not available: the worker
    /// then runs on its pipes alone) and this layout, in a session of its own, with exactly `environment`
    /// (``WorkerEnvironment``; the slot's variable is added), inside namespaces of its own when `namespaces`
    /// (``NamespaceLauncher``). The child's stderr is ``Posix/PipedChild/errors``.
    static func spawn(
        _ executable: String, arguments: [String], environment: [String], namespaces: Bool
    ) throws(HostError) -> (child: Posix.PipedChild, slot: SharedCallSlot?) {
        let slot = SharedCallSlot.create()
        // The spawn moves the slot to 3 with a dup2, which clears close-on-exec; a slot already on 3 would
        // keep the flag and be closed by the exec, so it moves out of the way first.
        var handed = slot?.descriptor ?? -1
        if handed == SharedCallSlot.workerDescriptor { handed = fcntl(handed, F_DUPFD_CLOEXEC, SharedCallSlot.workerDescriptor + 1) }
        defer { if let slot, handed != slot.descriptor, handed >= 0 { close(handed) } }
        let (program, words) = NamespaceLauncher.commandLine(executable, arguments, namespaces: namespaces)
        let child = try Posix.spawnPiped(
            program, arguments: words, pipeStandardInput: true, standardError: .pipe,
            environment: handed < 0 ? environment : environment + ["\(SharedCallSlot.environmentKey)=\(SharedCallSlot.workerDescriptor)"],
            descriptor3: handed)
        return (child, slot)
    }

    /// In the child of a `fork`: puts the frame pipes on 0 and 1 and the stderr pipe on 2 (a dup2 clears
    /// close-on-exec) and closes their other descriptors, puts `slot` on 3 and names it in the environment, or
    /// clears the variable when there is no slot. False when a descriptor could not be moved (the child must
    /// exit).
    static func installInForkedChild(
        frameInput: (read: Int32, write: Int32), frameOutput: (read: Int32, write: Int32), errors: (read: Int32, write: Int32),
        slot: SharedCallSlot?
    ) -> Bool {
        guard dup2(frameInput.read, 0) == 0, dup2(frameOutput.write, 1) == 1, dup2(errors.write, 2) == 2 else { return false }
        for end in [frameInput.read, frameInput.write, frameOutput.read, frameOutput.write, errors.read, errors.write] where end > 2 {
            close(end)
        }
        guard let slot else {
            unsetenv(SharedCallSlot.environmentKey)
            return true
        }
        // The object stays alive (its deinit would unmap and close what the worker now uses).
        _ = Unmanaged.passRetained(slot)
        if slot.descriptor != SharedCallSlot.workerDescriptor {
            guard dup2(slot.descriptor, SharedCallSlot.workerDescriptor) == SharedCallSlot.workerDescriptor else { return false }
            close(slot.descriptor)
        }
        setenv(SharedCallSlot.environmentKey, String(SharedCallSlot.workerDescriptor), 1)
        return true
    }
}
