import CSkillABI
import SkillJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A plugin library loaded into this process: the reusable part of in-process dispatch and of the worker
/// process (`skillhost __worker`).
///
/// Loading checks the file's ELF structure, `dlopen`s it with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`
/// (never closed), calls `skill_plugin_entry`, and checks the descriptor's magic, then its ABI major, then
/// its `struct_size`, before reading anything else. A path is loaded once per process; later loads return
/// the same instance. Thread-safe; whether ``invoke(skillID:arguments:context:)`` may run concurrently is
/// the manifest's `thread_safe` (callers serialize otherwise).
public final class PluginLibrary: @unchecked Sendable {
    /// Absolute path of the file.
    public let path: String
    /// The plugin's manifest bytes (UTF-8 JSON), copied from the descriptor.
    public let manifestBytes: [UInt8]
    /// The descriptor (static lifetime in the plugin).
    let descriptor: UnsafePointer<skill_plugin_descriptor>
    /// Shown in front of the plugin's log lines.
    package let label: String

    /// The manifest as text.
    public var manifestJSON: String { String(decoding: manifestBytes, as: UTF8.self) }

    /// The size of `skill_plugin_descriptor` in ABI 1.0; a smaller `struct_size` is refused.
    public static let minimumDescriptorSize = Int(SKILL_PLUGIN_DESCRIPTOR_SIZE_1_0)
    /// The largest manifest accepted.
    public static let maximumManifestBytes = 4 << 20

    private static let loaded = Mutex<[String: PluginLibrary]>([:])

    private init(path: String, descriptor: UnsafePointer<skill_plugin_descriptor>, manifest: [UInt8], label: String) {
        self.path = path
        self.descriptor = descriptor
        self.manifestBytes = manifest
        self.label = label
    }

    /// Whether this process has loaded the plugin at `path` (made absolute): true only in scanner children,
    /// workers, and hosts with `inprocess` plugins.
    public static func isLoaded(path: String) -> Bool {
        let path = Posix.absolutePath(path)
        return loaded.withLock { $0[path] != nil }
    }

    /// Loads the plugin at `path` (made absolute), or returns the instance loaded before.
    /// - Throws: ``HostError`` of kind `invalidPlugin` (or `notFound`) that names the file and the fault:
    ///   ELF structure, dlopen failure, missing `skill_plugin_entry`, NULL descriptor, wrong magic, another
    ///   ABI major, a smaller struct, a missing manifest or function.
    public static func load(path: String) throws(HostError) -> PluginLibrary {
        let path = Posix.absolutePath(path)
        if let existing = loaded.withLock({ $0[path] }) { return existing }
        try ELFCheck.check(path: path)
        let handle = try Posix.openLibrary(atPath: path)
        guard let symbol = Posix.symbol(SKILL_PLUGIN_ENTRY_SYMBOL, in: handle) else {
            throw HostError(.invalidPlugin,
                "\(path): does not export \(SKILL_PLUGIN_ENTRY_SYMBOL); in Swift the usual cause is a function that is not `public` (debug builds export it anyway, release builds do not): write `@_cdecl(\"skill_plugin_entry\") public func …`; in C, define it with SKILL_EXPORT (see docs/writing-skills.md)")
        }
        let label = String(path.split(separator: "/").last ?? Substring(path))
        let entry = unsafeBitCast(symbol, to: skill_plugin_entry_fn.self)
        guard let descriptor = entry(UInt32(SKILL_ABI_VERSION_MAJOR), UInt32(SKILL_ABI_VERSION_MINOR), HostAPITable.make(label: label)) else {
            throw HostError(.invalidPlugin,
                "\(path): \(SKILL_PLUGIN_ENTRY_SYMBOL) returned NULL (the plugin refuses ABI \(SKILL_ABI_VERSION_MAJOR).\(SKILL_ABI_VERSION_MINOR)); rebuild it against this host's skill_abi.h")
        }
        let manifest = try checkDescriptor(descriptor, path: path)
        let library = PluginLibrary(path: path, descriptor: descriptor, manifest: manifest, label: label)
        return loaded.withLock { libraries in
            if let existing = libraries[path] { return existing }
            libraries[path] = library
            return library
        }
    }

    /// Checks magic → ABI major → struct size → manifest and functions; returns a copy of the manifest.
    static func checkDescriptor(_ descriptor: UnsafePointer<skill_plugin_descriptor>, path: String) throws(HostError) -> [UInt8] {
        // The first fields are read one by one at their offsets (from the header's layout), before the size
        // says how much of the struct the plugin has.
        let raw = UnsafeRawPointer(descriptor)
        func field<T>(_ path: KeyPath<skill_plugin_descriptor, T>, as type: T.Type) -> T {
            raw.loadUnaligned(fromByteOffset: MemoryLayout<skill_plugin_descriptor>.offset(of: path)!, as: type)
        }
        let magic = field(\.magic, as: UInt32.self)
        guard magic == SKILL_ABI_MAGIC else {
            throw HostError(.invalidPlugin,
                "\(path): descriptor magic is 0x\(String(magic, radix: 16)), expected 0x\(String(SKILL_ABI_MAGIC, radix: 16)) (\"SKL1\"); the entry point does not return a skill_plugin_descriptor")
        }
        let major = field(\.abi_major, as: UInt16.self)
        let minor = field(\.abi_minor, as: UInt16.self)
        guard major == SKILL_ABI_VERSION_MAJOR else {
            throw HostError(.invalidPlugin,
                "\(path): built for plugin ABI \(major).\(minor), this host implements ABI \(SKILL_ABI_VERSION_MAJOR).x; rebuild the plugin against this host's skill_abi.h")
        }
        let size = Int(field(\.struct_size, as: UInt32.self))
        guard size >= minimumDescriptorSize else {
            throw HostError(.invalidPlugin,
                "\(path): descriptor struct_size is \(size) bytes, smaller than ABI 1.0's \(minimumDescriptorSize); rebuild the plugin against this host's skill_abi.h")
        }
        let fields = descriptor.pointee
        guard fields.invoke != nil, fields.free_result != nil else {
            throw HostError(.invalidPlugin, "\(path): descriptor has a NULL invoke or free_result function")
        }
        guard let text = fields.manifest_json, fields.manifest_json_length > 0 else {
            throw HostError(.invalidPlugin, "\(path): descriptor has no manifest_json")
        }
        guard fields.manifest_json_length <= maximumManifestBytes else {
            throw HostError(.invalidPlugin,
                "\(path): manifest is \(fields.manifest_json_length) bytes, more than the \(maximumManifestBytes) allowed")
        }
        return Array(UnsafeRawBufferPointer(start: text, count: fields.manifest_json_length))
    }

    /// Runs one skill on the calling thread (which may block for as long as the skill runs: call it from a
    /// thread you own, never from the Swift cooperative pool), copies the result and releases it through the
    /// plugin's `free_result`.
    public func invoke(skillID: String, arguments: [UInt8], context: PluginCallContext) -> PluginResult {
        let label = self.label
        let bridge = CallContextBridge(context: context, label: label)
        return bridge.withCContext { cContext in
            var result = skill_result()
            result.struct_size = UInt32(MemoryLayout<skill_result>.size)
            let status = arguments.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    skillID.withCString { id in
                        descriptor.pointee.invoke!(descriptor, id, chars.baseAddress, chars.count, cContext, &result)
                    }
                }
            }
            var bytes: [UInt8] = []
            if let json = result.json, result.json_length > 0 {
                bytes = Array(UnsafeRawBufferPointer(start: json, count: result.json_length))
            }
            descriptor.pointee.free_result!(descriptor, &result)
            return PluginResult(status: status, bytes: bytes)
        }
    }
}
