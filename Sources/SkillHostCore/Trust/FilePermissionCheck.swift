#if canImport(Glibc)
import Glibc
#endif

/// Refuses plugin files that someone other than their owner could have swapped, the way ssh refuses a key
/// file others can write.
///
/// A plugin file, and each folder given alongside it, must not be writable by group or others, and must be
/// owned by the current user or by root. Anything else means another account could replace the code the host
/// is about to run.
public enum FilePermissionCheck {
    /// Checks `pluginPath` and the folder that holds it, plus `extraFolders` (e.g. the plugins folder).
    /// - Parameters:
    ///   - pluginPath: absolute path of the plugin file.
    ///   - pluginID: the plugin's id, named in the message.
    ///   - extraFolders: further folders to check (the plugins folder when the file sits in a subfolder).
    /// - Throws: ``HostError`` of kind `denied` saying which path is unsafe and the command that fixes it,
    ///   or `notFound` when the file does not exist.
    public static func verify(pluginPath: String, pluginID: String, extraFolders: [String] = []) throws(HostError) {
        try verify(path: pluginPath, isFolder: false, pluginID: pluginID)
        var folders = [Posix.directoryName(of: pluginPath)]
        for folder in extraFolders where !folders.contains(folder) { folders.append(folder) }
        for folder in folders {
            try verify(path: folder, isFolder: true, pluginID: pluginID)
        }
    }

    private static func verify(path: String, isFolder: Bool, pluginID: String) throws(HostError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = Posix.describe(errno: errno)
            throw HostError(
                errno == ENOENT ? .notFound : .io,
                "plugin \(pluginID): cannot check the permissions of \(path): \(reason)", pluginID: pluginID)
        }
        let what = isFolder ? "folder" : "file"
        let mode = info.st_mode
        // A sticky folder writable by all (like /tmp) still lets others add files but not replace ours;
        // only the plugin file itself and non-sticky folders are judged by their write bits.
        let sticky = isFolder && (mode & S_ISVTX) != 0
        if !sticky, mode & (S_IWGRP | S_IWOTH) != 0 {
            let octal = String(mode & 0o777, radix: 8)
            throw HostError(
                .denied,
                "plugin \(pluginID): refusing to run it because the \(what) \(path) is writable by other users "
                    + "(mode \(octal)); fix it with 'chmod go-w \(path)'",
                pluginID: pluginID)
        }
        let me = getuid()
        if info.st_uid != me, info.st_uid != 0 {
            throw HostError(
                .denied,
                "plugin \(pluginID): refusing to run it because the \(what) \(path) is owned by another user "
                    + "(uid \(info.st_uid)); take it over with 'chown \(me) \(path)' or reinstall the plugin yourself",
                pluginID: pluginID)
        }
    }
}
