import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// Resource limits a worker process applies to itself with `setrlimit` before it loads its plugin
/// (registry `limits`, per plugin over `defaults.limits`).
public struct ResourceLimits: Sendable, Equatable {
    /// Address space (RLIMIT_AS) in MiB; nil for no limit.
    public var addressSpaceMB: Int?
    /// CPU time (RLIMIT_CPU) in seconds; nil for no limit.
    public var cpuSeconds: Int?
    /// Open files (RLIMIT_NOFILE); nil for no limit.
    public var openFiles: Int?
    /// Processes a plugin with the `processes` capability may have at once, its worker included
    /// (RLIMIT_NPROC in the worker's user namespace, and the pid_max of its PID namespace, at least 301 there);
    /// nil for no limit. Without the namespace layer the kernel counts every process of the user, so it is not
    /// applied there (docs/isolation.md).
    public var processes: Int?
    /// The largest file a worker may write (RLIMIT_FSIZE) in MiB; nil for no limit. A write past it fails
    /// with EFBIG inside the plugin.
    public var fileSizeMB: Int?

    /// The defaults used when the registry says nothing: 4096 MiB, 600 CPU seconds, 256 open files, 64
    /// processes, files of 1024 MiB.
    public static let defaults = ResourceLimits(addressSpaceMB: 4096, cpuSeconds: 600, openFiles: 256, processes: 64, fileSizeMB: 1024)

    public init(addressSpaceMB: Int? = nil, cpuSeconds: Int? = nil, openFiles: Int? = nil, processes: Int? = nil, fileSizeMB: Int? = nil) {
        self.addressSpaceMB = addressSpaceMB
        self.cpuSeconds = cpuSeconds
        self.openFiles = openFiles
        self.processes = processes
        self.fileSizeMB = fileSizeMB
    }

    /// The registry's name, the worker's option and the member of each limit: the one table the registry
    /// reader, the worker's words and their parser share.
    nonisolated(unsafe) static let members: [(key: String, option: String, keyPath: WritableKeyPath<ResourceLimits, Int?>)] = [
        ("address_space_mb", "--as-mb", \.addressSpaceMB), ("cpu_seconds", "--cpu-s", \.cpuSeconds),
        ("open_files", "--nofile", \.openFiles), ("processes", "--nproc", \.processes),
        ("file_size_mb", "--fsize-mb", \.fileSizeMB),
    ]

    /// These limits with the members of a registry `limits` object laid over them.
    /// - Parameters:
    ///   - object: a JSON object with `address_space_mb`, `cpu_seconds`, `open_files`, `processes`,
    ///     `file_size_mb` (each a positive integer, or 0 / null for no limit); other keys are ignored.
    ///   - pointer: where the object sits in the registry, for messages (e.g. `/plugins/clock/limits`).
    /// - Throws: ``HostError`` of kind `registry` naming the member and the expected value.
    public func overlaid(with object: JSONValue?, at pointer: String) throws(HostError) -> ResourceLimits {
        guard let object else { return self }
        guard case .object(let members) = object else {
            throw HostError(
                .registry,
                "registry \(pointer) must be an object like {\"address_space_mb\": 2048}, not \(object.typeName)")
        }
        var result = self
        for (key, _, keyPath) in Self.members {
            guard let value = members[key] else { continue }
            if value.isNull {
                result[keyPath: keyPath] = nil
                continue
            }
            guard let number = value.intValue, number >= 0, number <= Int64(Int32.max) else {
                throw HostError(
                    .registry,
                    "registry \(pointer)/\(key) is \(value.serialized()); use a whole number ≥ 0 (0 or null = no limit)")
            }
            result[keyPath: keyPath] = number == 0 ? nil : Int(number)
        }
        return result
    }

    /// The limits as command-line words for the worker (`--as-mb N --cpu-s N --nofile N --nproc N
    /// --fsize-mb N`, 0 = none).
    public var workerArguments: [String] {
        Self.members.flatMap { [$0.option, String(self[keyPath: $0.keyPath] ?? 0)] }
    }

    /// Parses what ``workerArguments`` wrote; unknown words are left in `rest`.
    public static func parse(workerArguments words: [String]) -> (limits: ResourceLimits, rest: [String]) {
        var limits = ResourceLimits()
        var rest: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            let keyPath = Self.members.first { $0.option == word }?.keyPath
            if let keyPath, index + 1 < words.count, let value = Int(words[index + 1]) {
                limits[keyPath: keyPath] = value > 0 ? value : nil
                index += 2
            } else {
                rest.append(word)
                index += 1
            }
        }
        return (limits, rest)
    }

    /// Applies the limits to the calling process. Address space, open files, processes and file size are set
    /// soft and hard (the plugin cannot raise them); CPU time only soft, so a long-lived worker can give each
    /// call a fresh budget (see `CPUBudget`).
    /// - Parameter countsOwnProcesses: the process is in a user namespace of its own, where RLIMIT_NPROC
    ///   counts only the sandbox's processes; outside one it would count every process of the user, so
    ///   ``processes`` is left to the PID namespace (or unlimited).
    /// - Throws: ``HostError`` of kind `io` naming the limit the kernel refused.
    public func apply(countsOwnProcesses: Bool = false) throws(HostError) {
        if let addressSpaceMB { try set(Int32(RLIMIT_AS.rawValue), UInt64(addressSpaceMB) << 20, "address space") }
        if let cpuSeconds { try set(Int32(RLIMIT_CPU.rawValue), UInt64(cpuSeconds), "CPU time", softOnly: true) }
        if let openFiles { try set(Int32(RLIMIT_NOFILE.rawValue), UInt64(openFiles), "open files") }
        if let processes, countsOwnProcesses { try set(Int32(__RLIMIT_NPROC.rawValue), UInt64(processes), "processes") }
        if let fileSizeMB { try set(Int32(RLIMIT_FSIZE.rawValue), UInt64(fileSizeMB) << 20, "file size") }
    }

    private func set(_ resource: Int32, _ value: UInt64, _ name: String, softOnly: Bool = false) throws(HostError) {
        var current = rlimit()
        getrlimit(resource, &current)
        // Never ask for more than the hard limit we already have: that needs privileges.
        let capped = current.rlim_max == rlim_t.max ? value : min(value, UInt64(current.rlim_max))
        var limit = rlimit(rlim_cur: rlim_t(capped), rlim_max: softOnly ? current.rlim_max : rlim_t(capped))
        guard setrlimit(resource, &limit) == 0 else {
            throw HostError(.io, "worker: cannot limit \(name) to \(value): \(Posix.describe(errno: errno))")
        }
    }
}
