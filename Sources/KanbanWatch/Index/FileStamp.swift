/// What `stat(2)` says about a file, enough to notice any change to it: which file it is (device and
/// inode), its size, and its modification and status-change times in nanoseconds.
///
/// Stamps are compared with `!=`, never `>`: a `cp -p` of an older file of the same size changes the
/// inode or ctime, and a file given a future mtime and then set back is still different.
struct FileStamp: Sendable, Hashable {
    /// What kind of file it is.
    enum Kind: Sendable, Hashable { case file, directory, symbolicLink, other }

    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// `st_mtim` in nanoseconds since 1970.
    var modified: Int64
    /// `st_ctim` in nanoseconds since 1970.
    var changed: Int64
    var kind: Kind

    /// Whether the file could change again without its stamp changing: its ctime is so close to `instant`
    /// (when it was read) that a write in the same clock tick, or within a coarse file system's timestamp
    /// granularity, would leave the stamp as it is. Such a file is read again on the next pass, as git does
    /// with "racily clean" index entries. (ctime, not mtime: a person can set mtime to anything, but any
    /// change to the file sets ctime to the kernel's clock.)
    func isRacy(readAt instant: Int64, window: Int64 = 2_000_000_000) -> Bool {
        instant - changed < window
    }

    /// The same file, by device and inode.
    func isSameFile(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode
    }
}
