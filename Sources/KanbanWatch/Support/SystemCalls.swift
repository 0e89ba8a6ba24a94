import KanbanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, on what, and `errno` as it was right after the call.
struct SystemCallError: Error, Sendable, CustomStringConvertible {
    var call: String
    var path: String?
    var code: Int32

    var description: String {
        let reason = String(cString: strerror(code))
        if let path { return "\(call) '\(path)': \(reason)" }
        return "\(call): \(reason)"
    }
}

/// The system calls KanbanWatch makes, in one place: `errno` is captured at once, `EINTR` is retried,
/// and every descriptor is opened close-on-exec so that `--exec` children inherit none of them.
enum SystemCalls {
    // MARK: Descriptors

    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    static func closeDescriptor(_ descriptor: Int32) {
        // Retrying close after EINTR is wrong on Linux: the descriptor is already released.
        _ = close(descriptor)
    }

    /// Two connected sockets, close-on-exec and non-blocking, used to wake a thread blocked in `poll(2)`.
    static func wakePair() -> Result<(reader: Int32, writer: Int32), SystemCallError> {
        Platform.socketPair(nonBlocking: true).map { (reader: $0.0, writer: $0.1) }
    }

    /// Writes one byte, ignoring a full buffer (one pending byte is enough to wake the reader).
    static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = retrying { write(descriptor, &byte, 1) }
    }

    /// Reads and discards what is waiting on a non-blocking descriptor.
    static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while retrying({ read(descriptor, &buffer, buffer.count) }) > 0 {}
    }

    /// What `poll(2)` saw on each descriptor.
    struct Readiness {
        var readable: [Bool]
    }

    /// Waits until one of `descriptors` is readable or `timeoutMilliseconds` pass (-1: no limit).
    /// An interrupted wait returns with nothing readable rather than restarting with a stale timeout.
    static func waitReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> Result<Readiness, SystemCallError> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        if count < 0 {
            let code = errno
            if code == EINTR { return .success(Readiness(readable: Array(repeating: false, count: descriptors.count))) }
            return .failure(SystemCallError(call: "poll", code: code))
        }
        let ready = entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
        return .success(Readiness(readable: ready))
    }

    // MARK: inotify

    #if os(Linux)
    /// A new inotify instance, close-on-exec and non-blocking.
    static func inotifyInitialize() -> Result<Int32, SystemCallError> {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return .failure(SystemCallError(call: "inotify_init1", code: errno)) }
        return .success(descriptor)
    }

    static func inotifyAddWatch(_ descriptor: Int32, path: String, mask: UInt32) -> Result<Int32, SystemCallError> {
        let watch = inotify_add_watch(descriptor, path, mask)
        guard watch >= 0 else { return .failure(SystemCallError(call: "inotify_add_watch", path: path, code: errno)) }
        return .success(watch)
    }

    static func inotifyRemoveWatch(_ descriptor: Int32, watch: Int32) {
        _ = inotify_rm_watch(descriptor, watch)
    }
    #endif

    /// Reads what is waiting on a non-blocking descriptor into `buffer`: the byte count, 0 when nothing waits.
    static func readAvailable(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemCallError> {
        let count = retrying { read(descriptor, buffer.baseAddress, buffer.count) }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK { return .success(0) }
            return .failure(SystemCallError(call: "read", code: code))
        }
        return .success(count)
    }

    // MARK: Files

    /// The stamp of `path` itself (symbolic links are not followed), or nil when it does not exist.
    static func linkStamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// The stamp of what `path` leads to (symbolic links followed), or nil.
    static func targetStamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }

    /// The absolute path with every symbolic link resolved, or nil when it does not lead anywhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// One directory entry: its name and, when the listing said so, its kind (no extra `stat`).
    struct DirectoryEntry: Sendable {
        var name: String
        var kind: FileStamp.Kind?
    }

    /// The entries of a directory except `.` and `..`; a missing directory (or one that is no longer a
    /// directory) has none.
    static func entries(of path: String) -> Result<[DirectoryEntry], SystemCallError> {
        guard let stream = opendir(path) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .success([]) }
            return .failure(SystemCallError(call: "opendir", path: path, code: code))
        }
        defer { closedir(stream) }
        var result: [DirectoryEntry] = []
        while let entry = readdir(stream) {
            let name = String(cString: entry.name)
            if name == "." || name == ".." { continue }
            let kind: FileStamp.Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = nil
            default: kind = .other
            }
            result.append(DirectoryEntry(name: name, kind: kind))
        }
        return .success(result)
    }

    /// Calls `body` with the name and stamp (`fstatat` on the open directory, links not followed) of every
    /// entry whose name's bytes pass `include`: the fast path of a polling pass, which makes a `String` only for
    /// names it keeps. Returns false when the directory cannot be read (a missing one has no entries).
    static func forEachStampedEntry(of path: String, where include: (UnsafeBufferPointer<UInt8>) -> Bool,
                                    _ body: (String, FileStamp) -> Void) -> Bool {
        let directory = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard directory >= 0 else { return errno == ENOENT || errno == ENOTDIR }
        guard let stream = fdopendir(directory) else {
            closeDescriptor(directory)
            return false
        }
        defer { closedir(stream) }  // closes `directory` too
        var info = stat()
        while let entry = readdir(stream) {
            let cName = entry.name
            let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
            guard include(name), fstatat(directory, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            body(String(decoding: name, as: UTF8.self), FileStamp(info))
        }
        return true
    }

    /// The outcome of reading a card file.
    enum FileContents: Sendable {
        /// The bytes and the stamp they belong to.
        case read([UInt8], FileStamp)
        /// Nothing (or no regular file) at the path.
        case missing
        /// The file changed while it was read; read it again later.
        case changing
        case failed(SystemCallError)
    }

    /// Reads the file at `path` whole, and makes sure the bytes belong to one version of it: the stamp
    /// before and after the read must agree, and the path must still lead to the file that was read.
    /// - Parameter followingLink: Whether a symbolic link at `path` may be followed (the caller has checked
    ///   that it stays inside the board).
    static func readFile(_ path: String, followingLink: Bool) -> FileContents {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLink ? 0 : O_NOFOLLOW)
        let descriptor = retrying { open(path, flags) }
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ELOOP || code == ENOTDIR { return .missing }
            return .failed(SystemCallError(call: "open", path: path, code: code))
        }
        defer { closeDescriptor(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failed(SystemCallError(call: "fstat", path: path, code: errno)) }
        let before = FileStamp(info)
        guard before.kind == .file else { return .missing }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, before.size)) + 1)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { return .failed(SystemCallError(call: "read", path: path, code: errno)) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard fstat(descriptor, &info) == 0 else { return .failed(SystemCallError(call: "fstat", path: path, code: errno)) }
        let after = FileStamp(info)
        guard after == before, Int64(bytes.count) == after.size else { return .changing }
        var current = stat()
        let check = followingLink ? stat(path, &current) : lstat(path, &current)
        guard check == 0 else { return .missing }
        guard FileStamp(current) == after else { return .changing }
        return .read(bytes, after)
    }

    // MARK: Clocks

    /// Nanoseconds since 1970 on the real-time clock, comparable with file timestamps.
    static func realtimeNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    // MARK: Threads

    /// An opaque identity of the calling thread.
    static func currentThread() -> UInt {
        Platform.currentThread()
    }

    /// Whether `descriptor` is an open descriptor of this process (tests check that `stop()` closes them).
    static func isOpen(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) != -1
    }

    /// What `/proc/self/fd/<descriptor>` links to, such as `anon_inode:inotify`, or nil.
    static func descriptorTarget(_ descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
