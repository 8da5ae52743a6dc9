#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// Everything `stat(2)` says that changes when a file is replaced, rewritten, touched, moved or has its
    /// permissions changed: the key of every cache that is revalidated by status alone (the per-process
    /// catalog, the listing cache). Two equal identities mean the same bytes as far as the host can tell
    /// without reading them.
    package struct FileIdentity: Equatable, Hashable, Sendable, CustomStringConvertible {
        package var device: UInt64
        package var inode: UInt64
        package var size: Int64
        /// Modification time, nanoseconds since the epoch.
        package var modified: Int64
        /// Status-change time (also moves on chmod, chown, rename), nanoseconds since the epoch.
        package var changed: Int64
        package var mode: UInt32
        package var owner: UInt32
        /// The `errno` of a failed `stat`, 0 when it succeeded.
        package var error: Int32

        /// The identity of what `path` leads to now (links followed); a failed `stat` gives an identity
        /// that holds only its errno, equal to every other failure with the same errno.
        package init(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                self.init(device: 0, inode: 0, size: -1, modified: 0, changed: 0, mode: 0, owner: 0, error: errno)
                return
            }
            self.init(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                mode: UInt32(info.st_mode), owner: UInt32(info.st_uid), error: 0)
        }

        package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64, mode: UInt32,
                     owner: UInt32, error: Int32 = 0) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.changed = changed
            self.mode = mode
            self.owner = owner
            self.error = error
        }

        /// Whether `stat` failed.
        package var isMissing: Bool { error != 0 }

        /// `dev ino size mtime ctime mode uid`, or `missing ERRNO`: one line of a cache key.
        package var description: String {
            if isMissing { return "missing \(error)" }
            return "\(device) \(inode) \(size) \(modified) \(changed) \(mode) \(owner)"
        }
    }
}
