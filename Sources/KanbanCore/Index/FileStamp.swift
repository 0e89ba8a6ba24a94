#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says about a file, enough to notice any change to it: which file it is (device and inode), what
/// kind, its size, and its modification and status-change times in nanoseconds. The board index keeps one per card
/// file, the watcher one per file it follows: a file whose stamp is unchanged is taken to be unchanged (git's index
/// makes the same bet).
///
/// The change time cannot be set from user space, so a `touch` with an old time, a file replaced by a rename and
/// an inode reused for another file all give another stamp, even when size and modification time agree. Stamps are
/// compared with `!=`, never `>`: a file given a future mtime and then set back is still different.
package struct FileStamp: Sendable, Hashable {
    /// What kind of file it is.
    package enum Kind: Sendable, Hashable { case file, directory, symbolicLink, other }

    package var size: Int64
    /// Modification time, nanoseconds since 1970.
    package var modified: Int64
    /// Status change time, nanoseconds since 1970.
    package var changed: Int64
    package var inode: UInt64
    package var device: UInt64
    package var kind: Kind

    /// The stamp of the regular file `name` in the directory open as `descriptor` (a link is not followed); nil
    /// when there is none, or it is not a regular file.
    package init?(name: UnsafePointer<CChar>, in descriptor: Int32) {
        var info = stat()
        let result = FileSystem.retrying { fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) }
        guard result == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(info)
    }

    package init(_ info: stat) {
        size = Int64(info.st_size)
        let (modified, changed, device) = Platform.times(of: info)
        self.modified = Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec)
        self.changed = Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec)
        inode = UInt64(info.st_ino)
        self.device = device
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
    }

    /// A regular file's stamp, as the board index stores it.
    package init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64, kind: Kind = .file) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.device = device
        self.kind = kind
    }

    /// Whether the file could change again without its stamp changing: its ctime is so close to `instant` (when it
    /// was read) that a write in the same clock tick, or within a coarse file system's timestamp granularity, would
    /// leave the stamp as it is. Such a file is read again on the next pass, as git does with "racily clean" index
    /// entries. (ctime, not mtime: a person can set mtime to anything, but any change sets ctime to the kernel's clock.)
    package func isRacy(readAt instant: Int64, window: Int64 = 2_000_000_000) -> Bool {
        instant - changed < window
    }

    /// The same file, by device and inode.
    package func isSameFile(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode
    }

    // The kind is left out: an inode keeps its kind for life, and the index stores the stamps of files and
    // directories without it.
    package static func == (first: FileStamp, second: FileStamp) -> Bool {
        first.size == second.size && first.modified == second.modified && first.changed == second.changed
            && first.inode == second.inode && first.device == second.device
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(modified)
        hasher.combine(changed)
        hasher.combine(inode)
        hasher.combine(device)
    }

    /// The later of the two times.
    package var latest: Int64 { max(modified, changed) }

    /// Now, in nanoseconds since 1970, by the clock file times come from.
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
