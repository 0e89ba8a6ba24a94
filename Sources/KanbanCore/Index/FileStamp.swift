#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says about a card file, as the board index keeps it: a file whose stamp is unchanged is taken to be
/// unchanged (git's index makes the same bet).
///
/// The change time cannot be set from user space, so a `touch` with an old time, a file replaced by a rename and
/// an inode reused for another file all give another stamp, even when size and modification time agree.
struct FileStamp: Sendable, Hashable {
    var size: Int64
    /// Modification time, nanoseconds since 1970.
    var modified: Int64
    /// Status change time, nanoseconds since 1970.
    var changed: Int64
    var inode: UInt64
    var device: UInt64

    /// The stamp of the regular file `name` in the directory open as `descriptor` (a link is not followed); nil
    /// when there is none, or it is not a regular file.
    init?(name: UnsafePointer<CChar>, in descriptor: Int32) {
        var info = stat()
        let result = FileSystem.retrying { fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) }
        guard result == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
    }

    init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
    }

    /// The later of the two times.
    var latest: Int64 { max(modified, changed) }

    /// Now, in nanoseconds since 1970, by the clock file times come from.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
