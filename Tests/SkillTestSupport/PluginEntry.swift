import CSkillABI
import Foundation

/// Loads a plugin file the way the host's worker does (`dlopen` with `RTLD_NOW|RTLD_LOCAL|RTLD_NODELETE`,
/// never closed) and asks its entry point for the ABI 1.0 descriptor. Loading plugin code in a test is
/// fine; it is the `skillhost` process that must not during discovery.
public enum PluginEntry {
    /// The descriptor `skill_plugin_entry(1, 0, nil)` returns for the file at `path`.
    public static func descriptor(path: String) throws -> UnsafePointer<skill_plugin_descriptor> {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw TestSetupError("dlopen \(path): \(String(cString: dlerror()))")
        }
        guard let symbol = dlsym(handle, "skill_plugin_entry") else {
            throw TestSetupError("\(path) has no skill_plugin_entry")
        }
        let entry = unsafeBitCast(symbol, to: skill_plugin_entry_fn.self)
        guard let descriptor = entry(1, 0, nil) else {
            throw TestSetupError("\(path) returned no descriptor for ABI 1.0")
        }
        return descriptor
    }
}
