import CSkillABI
#if canImport(Glibc)
import Glibc
#endif

/// The `skill_host_api` table handed to a plugin's entry point: one per loaded library, static lifetime
/// (never freed), `host_data` pointing at the label its log lines carry.
enum HostAPITable {
    /// Keeps the label alive for as long as the table exists (forever).
    final class Owner {
        let label: String
        init(label: String) { self.label = label }
    }

    /// A new table for the plugin shown as `label` in logs.
    static func make(label: String) -> UnsafePointer<skill_host_api> {
        let table = UnsafeMutablePointer<skill_host_api>.allocate(capacity: 1)
        var api = skill_host_api()
        api.struct_size = UInt32(MemoryLayout<skill_host_api>.size)
        api.abi_major = UInt32(SKILL_ABI_VERSION_MAJOR)
        api.abi_minor = UInt32(SKILL_ABI_VERSION_MINOR)
        api.host_data = Unmanaged.passRetained(Owner(label: label)).toOpaque()
        api.log = { host, level, message, length in
            guard let data = host?.pointee.host_data, let message else { return }
            let owner = Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
            let text = String(decoding: UnsafeRawBufferPointer(start: message, count: length), as: UTF8.self)
            PluginLog.write(label: owner.label, level: level, text: text)
        }
        api.get_extension = { _, _ in nil }
        table.initialize(to: api)
        return UnsafePointer(table)
    }
}
