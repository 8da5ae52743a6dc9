import Dispatch
import Foundation
import SkillJSON
import Synchronization

/// Runs a plugin's skills inside the host process (registry `isolation: "inprocess"`).
///
/// Each call runs on a thread of its own (never on the Swift cooperative pool: a plugin's invoke may block,
/// and a blocked pool thread on a 2-core machine deadlocks the host). Calls into a plugin that is not
/// `thread_safe` are serialized. The timeout (the call's ``CallDeadline``) is cooperative: when it passes, the
/// call's `is_cancelled` flag is set and `timeout` is reported at once; the plugin's thread is left to finish on its own. Cancelling
/// the awaiting task works the same way and reports `cancelled`. The library is loaded on first use, and its
/// manifest must equal the one the scanner saw.
public final class InProcessExecutor: PluginExecutor {
    /// The plugin file.
    public let path: String
    private let expectedManifest: JSONValue
    private let threadSafe: Bool
    private let diagnostics: DiagnosticSink
    private let library = Mutex<PluginLibrary?>(nil)
    private let serial = DispatchSemaphore(value: 1)
    private let isShutDown = Atomic<Bool>(false)

    /// - Parameters:
    ///   - expectedManifest: the manifest the scan recorded; a library whose manifest differs is refused.
    ///   - threadSafe: the manifest's `thread_safe`; false serializes calls.
    ///   - diagnostics: receives the plugin's log lines.
    public init(path: String, expectedManifest: JSONValue, threadSafe: Bool, diagnostics: DiagnosticSink = .discard) {
        self.diagnostics = diagnostics
        self.path = path
        self.expectedManifest = expectedManifest
        self.threadSafe = threadSafe
    }

    /// Runs one call on a thread of its own; see the type's discussion for timeouts and cancellation.
    public nonisolated(nonsending) func execute(_ call: SkillCall) async throws(HostError) -> JSONValue {
        guard !isShutDown.load(ordering: .relaxed) else {
            throw HostError(.cancelled, "the executor for \(path) is shut down", skillID: call.skillID, pluginID: call.pluginID)
        }
        let flag = CancelFlag()
        let completion = CallCompletion<JSONValue>()
        let deadline = call.deadline
        let thread = Thread { [self] in
            completion.finish(Result { () throws(HostError) in try run(call, flag: flag) })
        }
        thread.stackSize = 8 << 20
        thread.start()
        // The outcome is settled before the flag is raised: a plugin that sees the flag and returns at once
        // must not have its `cancelled` status win the race and hide the timeout (exit code 7).
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.remainingSeconds) {
            completion.finish(.failure(deadline.timeout(
                call.skillID, pluginID: call.pluginID, detail: "the plugin was asked to stop (it runs in the host process)")))
            flag.set()
        }
        let result = await withTaskCancellationHandler {
            await completion.wait()
        } onCancel: {
            completion.finish(.failure(HostError(.cancelled, "skill \(call.skillID) was cancelled", skillID: call.skillID, pluginID: call.pluginID)))
            flag.set()
        }
        return try result.get()
    }

    /// Refuses later calls (loaded libraries stay loaded: the host never unloads).
    public func shutdown() async {
        isShutDown.store(true, ordering: .relaxed)
    }

    /// Runs on the call's own thread.
    private func run(_ call: SkillCall, flag: CancelFlag) throws(HostError) -> JSONValue {
        if !threadSafe { serial.wait() }
        defer { if !threadSafe { serial.signal() } }
        guard !flag.isSet else {
            throw HostError(.cancelled, "skill \(call.skillID) was cancelled before it started", skillID: call.skillID, pluginID: call.pluginID)
        }
        let library = try loadedLibrary(pluginID: call.pluginID)
        let label = call.pluginID
        let context = PluginCallContext(
            callID: call.callID, sessionID: call.sessionID, idempotencyKey: call.idempotencyKey,
            deadlineUnixMilliseconds: call.deadline.unixMilliseconds,
            configuration: call.configuration, dataDirectory: call.dataDirectory, isCancelled: { flag.isSet },
            sessionContext: call.sessionContext,
            log: { [diagnostics] level, text in diagnostics.pluginLog(label: label, level: level, text: text) })
        let result = library.invoke(skillID: call.skillID, arguments: call.arguments.serializedBytes(), context: context)
        return try result.value(skillID: call.skillID, pluginID: call.pluginID)
    }

    private func loadedLibrary(pluginID: String) throws(HostError) -> PluginLibrary {
        if let loaded = library.withLock({ $0 }) { return loaded }
        let loaded = try PluginLibrary.load(path: path)
        guard (try? JSONValue(parsing: loaded.manifestBytes)) == expectedManifest else {
            throw HostError(.invalidPlugin,
                "\(path): plugin \(pluginID) changed since scan; run 'skillhost rescan'", pluginID: pluginID)
        }
        library.withLock { $0 = loaded }
        return loaded
    }
}

/// A flag set once (cancellation or timeout), read by the plugin's `is_cancelled` from any thread.
final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
