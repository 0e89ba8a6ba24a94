#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The system calls KanbanCore makes, in one place: errno is captured at once, `EINTR` is retried,
/// descriptors are opened close-on-exec, and failures become ``KanbanError``s that name the file.
enum FileSystem {
    /// What a directory entry is.
    enum EntryKind: Sendable { case file, directory, symbolicLink, other }

    struct Entry: Sendable {
        var name: String
        var kind: EntryKind
    }

    static func error(_ action: String, _ path: String, errno code: Int32) -> KanbanError {
        KanbanError(.fileSystem, "cannot \(action) '\(path)': \(String(cString: strerror(code)))")
    }

    /// The whole file, read with one reusable buffer per call.
    static func readFile(_ path: String) throws(KanbanError) -> [UInt8] {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw error("read", path, errno: errno) }
        defer { close(descriptor) }
        return try readAll(descriptor, path: path)
    }

    /// Everything left to read from `descriptor`; `path` names the file in errors.
    /// - Parameter scratch: Where to read a piece at a time; a file that fits in one read is copied out once.
    static func readAll(_ descriptor: Int32, path: @autoclosure () -> String, scratch: ReadBuffer = ReadBuffer(capacity: 16_384)) throws(KanbanError) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let count = retrying { read(descriptor, scratch.base, scratch.capacity) }
            if count < 0 { throw error("read", path(), errno: errno) }
            let piece = UnsafeBufferPointer(start: scratch.base.assumingMemoryBound(to: UInt8.self), count: count)
            // A short read of a regular file is its end.
            if result.isEmpty && count < scratch.capacity { return Array(piece) }
            result.append(contentsOf: piece)
            if count < scratch.capacity { return result }
        }
    }

    /// Memory to read files into, reused from one file to the next by one thread (a card rarely fills it).
    final class ReadBuffer {
        let capacity: Int
        let base: UnsafeMutableRawPointer

        init(capacity: Int = 65_536) {
            self.capacity = capacity
            base = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { base.deallocate() }
    }

    /// Writes `bytes` to `path` atomically: a hidden temporary file in the same directory, flushed to disk,
    /// given the old file's permissions, then renamed over `path`. Readers see the old or the new file, never half.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(KanbanError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var mode: mode_t = 0o644
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        var temporary = ""
        var descriptor: Int32 = -1
        for attempt in 0..<100 {
            temporary = directory + "/.\(name).\(getpid()).\(attempt).kanban-tmp"
            descriptor = retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw error("write", path, errno: errno) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            while written < buffer.count {
                let count = retrying { write(descriptor, buffer.baseAddress! + written, buffer.count - written) }
                if count < 0 { return errno }
                written += count
            }
            return nil
        }
        if let failure {
            close(descriptor)
            unlink(temporary)
            throw error("write", path, errno: failure)
        }
        _ = fchmod(descriptor, mode)
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw error("write", path, errno: code)
        }
        close(descriptor)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw error("write", path, errno: code)
        }
    }

    /// Creates a file that must not exist yet (`O_EXCL`), atomically: written aside, then linked into place.
    static func createAtomically(_ bytes: [UInt8], at path: String) throws(KanbanError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/.\((path as NSString).lastPathComponent).\(getpid()).new.kanban-tmp"
        try writeAtomically(bytes, to: temporary)
        defer { unlink(temporary) }
        if link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST { throw KanbanError(.alreadyExists, "'\(path)' already exists") }
            throw error("create", path, errno: code)
        }
    }

    static func remove(_ path: String) throws(KanbanError) {
        if unlink(path) != 0 && errno != ENOENT { throw error("remove", path, errno: errno) }
    }

    /// Renames without replacing an existing file.
    static func renameNoReplace(_ source: String, to destination: String) throws(KanbanError) {
        if link(source, destination) != 0 {
            let code = errno
            if code == EEXIST { throw KanbanError(.alreadyExists, "'\(destination)' already exists") }
            throw error("move", source, errno: code)
        }
        if unlink(source) != 0 { throw error("remove", source, errno: errno) }
    }

    /// Creates the directory and any missing parents (a fresh clone has no empty column directories).
    static func makeDirectory(_ path: String) throws(KanbanError) {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw error("create directory", path, errno: errno) }
        let parent = (path as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != path else { throw error("create directory", path, errno: ENOENT) }
        try makeDirectory(parent)
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw error("create directory", path, errno: errno) }
    }

    /// Removes an empty directory; returns false when it is not empty.
    @discardableResult
    static func removeDirectoryIfEmpty(_ path: String) -> Bool {
        rmdir(path) == 0
    }

    /// The size in bytes of what `path` names (following links), or 0 when it cannot be read.
    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    static func kind(of path: String) -> EntryKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kind(mode: info.st_mode)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The entries of a directory except `.` and `..`, unsorted. A missing directory has none.
    /// The entries of a directory except `.` and `..`, unsorted. A missing directory has none.
    static func entries(of path: String) throws(KanbanError) -> [Entry] {
        guard let directory = try OpenDirectory(path) else { return [] }
        return try directory.entries()
    }

    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func kind(mode: mode_t) -> EntryKind {
        switch mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

extension FileSystem {
    /// A directory held open, so that its files are listed and opened relative to it (`openat`) without the
    /// kernel walking the whole path again for each one. The descriptor closes when the value goes away.
    final class OpenDirectory: Sendable {
        /// The directory's path, for error messages.
        let path: String
        private let descriptor: Int32

        /// Opens the directory at `path`, following a link; nil when it does not exist or is not a directory.
        init?(_ path: String) throws(KanbanError) {
            let descriptor = retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard descriptor >= 0 else {
                if errno == ENOENT || errno == ENOTDIR { return nil }
                throw error("list", path, errno: errno)
            }
            self.path = path
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// The entries except `.` and `..`, in `readdir` order.
        func entries() throws(KanbanError) -> [Entry] {
            var result: [Entry] = []
            try forEachEntry { name, kind in result.append(Entry(name: String(decoding: name, as: UTF8.self), kind: kind)) }
            return result
        }

        /// Calls `body` with the name (its bytes, in place) and kind of each entry except `.` and `..`, in
        /// `readdir` order, making no string: a board's load lists every card file.
        func forEachEntry(_ body: (UnsafeBufferPointer<UInt8>, EntryKind) -> Void) throws(KanbanError) {
            // A duplicate, because closedir closes the descriptor it was given.
            let copy = retrying { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
            guard copy >= 0, let stream = fdopendir(copy) else {
                let code = errno
                if copy >= 0 { close(copy) }
                throw error("list", path, errno: code)
            }
            defer { closedir(stream) }
            rewinddir(stream)
            while let entry = readdir(stream) {
                let bytes = UnsafeRawPointer(entry.name).assumingMemoryBound(to: UInt8.self)
                if bytes[0] == 0x2E && (bytes[1] == 0 || (bytes[1] == 0x2E && bytes[2] == 0)) { continue }  // `.`, `..`
                let kind: EntryKind
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): kind = .file
                case Int32(DT_DIR): kind = .directory
                case Int32(DT_LNK): kind = .symbolicLink
                case Int32(DT_UNKNOWN): kind = self.kind(of: entry.name) ?? .other
                default: kind = .other
                }
                body(UnsafeBufferPointer(start: bytes, count: strlen(entry.name)), kind)
            }
        }

        /// The kind of the entry `name`, not following a link.
        func kind(of name: UnsafePointer<CChar>) -> EntryKind? {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return FileSystem.kind(mode: info.st_mode)
        }

        /// The whole file whose name starts `nameOffset` bytes into `relativePath` (a path relative to the board
        /// whose directory part is this directory), opened relative to this directory.
        func readFile(_ relativePath: String, nameOffset: Int, fullPath: @autoclosure () -> String,
                      scratch: ReadBuffer) throws(KanbanError) -> [UInt8] {
            try withContents(of: relativePath, nameOffset: nameOffset, fullPath: fullPath(), scratch: scratch) { Array($0) }
        }

        /// Calls `body` with the bytes of the file ``readFile(_:nameOffset:fullPath:scratch:)`` reads, read into
        /// `scratch` when they fit, so that no array is made for them; the bytes are valid only during the call.
        func withContents<Result>(of relativePath: String, nameOffset: Int, fullPath: @autoclosure () -> String, scratch: ReadBuffer,
                                  _ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(KanbanError) -> Result {
            let opened = relativePath.withCString { path in
                retrying { openat(descriptor, path + nameOffset, O_RDONLY | O_CLOEXEC) }
            }
            guard opened >= 0 else { throw error("read", fullPath(), errno: errno) }
            defer { close(opened) }
            let count = retrying { read(opened, scratch.base, scratch.capacity) }
            if count < 0 { throw error("read", fullPath(), errno: errno) }
            let first = UnsafeBufferPointer(start: scratch.base.assumingMemoryBound(to: UInt8.self), count: count)
            // A short read of a regular file is its end.
            if count < scratch.capacity { return body(first) }
            let bytes = Array(first) + (try readAll(opened, path: fullPath(), scratch: scratch))
            return bytes.withUnsafeBufferPointer(body)
        }
    }
}

extension UnsafeMutablePointer where Pointee == dirent {
    /// The entry's name, read in place. A record from `readdir` is only as long as its name: copying the whole
    /// 256-byte `d_name` array (as `withUnsafePointer(to: entry.pointee.d_name)` does) reads past the end of
    /// readdir's buffer, which can crash.
    package var name: UnsafePointer<CChar> {
        UnsafeRawPointer(self).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self)
    }
}

/// An exclusive advisory lock (`flock`) on the board directory, held by read-modify-write operations
/// so that two processes changing the board at once lose nothing.
final class BoardLock {
    private var descriptor: Int32

    /// Blocks until the lock is held.
    init(directory: String) throws(KanbanError) {
        descriptor = FileSystem.retrying { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw FileSystem.error("lock", directory, errno: errno) }
        if FileSystem.retrying({ flock(descriptor, LOCK_EX) }) != 0 {
            let code = errno
            close(descriptor)
            throw FileSystem.error("lock", directory, errno: code)
        }
    }

    func unlock() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }
}
