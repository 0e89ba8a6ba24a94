#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The system calls KanbanCore makes, in one place: errno is captured at once, `EINTR` is retried,
/// descriptors are opened close-on-exec, and failures become ``KanbanError``s that name the file.
///
/// The functions here that take a path are for files outside a board (a board being made, the git provider's files).
/// A board's own files are reached only through ``BoardRoot``, which never leaves the board directory.
package enum FileSystem {
    /// What a directory entry is.
    enum EntryKind: Sendable { case file, directory, symbolicLink, other }

    struct Entry: Sendable {
        var name: String
        var kind: EntryKind
    }

    static func error(_ action: String, _ path: String, errno code: Int32) -> KanbanError {
        KanbanError(.fileSystem, "cannot \(action) '\(path)': \(String(cString: strerror(code)))")
    }

    /// The whole regular file at `path` (following links), opened without blocking.
    /// - Parameter limit: The most bytes the file may have; a larger one is refused before it is read, naming
    ///   `what` the file is (`a Trello export`).
    package static func readFile(_ path: String, atMost limit: Int? = nil, what: String = "the file") throws(KanbanError) -> [UInt8] {
        let descriptor = retrying { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { throw error("read", path, errno: errno) }
        defer { close(descriptor) }
        try requireRegularFile(descriptor, path: path)
        if let limit {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw error("read", path, errno: errno) }
            guard Int(info.st_size) <= limit else {
                throw KanbanError(.invalidArgument, "\(what) is \(Int(info.st_size) >> 20) MB, over the \(limit >> 20) MB kanban reads",
                                  at: SourceLocation(path: path))
            }
        }
        return try readAll(descriptor, path: path)
    }

    /// Throws unless `descriptor` is a regular file: a FIFO or a device is never read as a card.
    static func requireRegularFile(_ descriptor: Int32, path: @autoclosure () -> String) throws(KanbanError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw error("read", path(), errno: errno) }
        guard kind(mode: info.st_mode) == .file else { throw notRegularFile(path()) }
    }

    /// The error for something that is not a regular file where one is expected.
    static func notRegularFile(_ path: String) -> KanbanError {
        KanbanError(.notRegularFile, "not a regular file (a FIFO, socket, device or directory); kanban only reads regular files",
                    at: SourceLocation(path: path))
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

    /// Writes `bytes` to `path` atomically (a hidden temporary file beside it, flushed, then renamed over it).
    /// For files outside a board; a board's files are written through ``BoardRoot``.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(KanbanError) {
        let parent = (path as NSString).deletingLastPathComponent
        guard let directory = try OpenDirectory(parent.isEmpty ? "/" : parent) else {
            throw error("write", path, errno: ENOENT)
        }
        try directory.writeAtomically(bytes, to: (path as NSString).lastPathComponent, path: path)
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

    package static func remove(_ path: String) throws(KanbanError) {
        if unlink(path) != 0 && errno != ENOENT { throw error("remove", path, errno: errno) }
    }

    /// Removes an empty directory; returns false when it is not empty.
    @discardableResult
    static func removeDirectoryIfEmpty(_ path: String) -> Bool {
        rmdir(path) == 0
    }

    static func kind(of path: String) -> EntryKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kind(mode: info.st_mode)
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
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

    package static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// The name of the hidden file a write of `name` goes through before it is renamed into place. It depends on
    /// the name alone, so that whoever finishes an interrupted change knows where to look (see ``BoardJournal``).
    static func temporaryName(for name: String) -> String {
        "." + name + ".kanban-tmp"
    }
}

extension FileSystem {
    /// A directory held open, so that its files are listed, read, written, renamed and removed relative to it
    /// (`openat` and friends), never by a path the kernel walks again. The descriptor closes when the value goes away.
    ///
    /// Every operation by name is confined to this directory: names never contain `/`, and no operation follows a
    /// link in the last component (``BoardRoot`` decides about links).
    final class OpenDirectory: Sendable {
        /// The directory's path, for error messages.
        let path: String
        let descriptor: Int32

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

        /// Takes ownership of an open directory descriptor.
        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        deinit { close(descriptor) }

        /// What opening a subdirectory without following a link found.
        enum Opening {
            case opened(OpenDirectory)
            case missing
            /// The name is a symbolic link: the caller decides whether to follow it.
            case link
            case notDirectory
        }

        /// Opens the directory `name` in this one, never following a link.
        /// - Parameter path: How the directory is named in errors.
        func openSubdirectory(_ name: String, path: @autoclosure () -> String) throws(KanbanError) -> Opening {
            let opened = retrying { openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            if opened >= 0 { return .opened(OpenDirectory(descriptor: opened, path: path())) }
            switch errno {
            case ENOENT: return .missing
            case ENOTDIR:
                // O_NOFOLLOW with O_DIRECTORY reports a link to a directory as ENOTDIR on some systems.
                return kind(of: name) == .symbolicLink ? .link : .notDirectory
            case ELOOP: return .link
            default: throw error("open", path(), errno: errno)
            }
        }

        /// The target of the link `name`, as written.
        func readLink(_ name: String, path: @autoclosure () -> String) throws(KanbanError) -> String {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = retrying { readlinkat(descriptor, name, &buffer, buffer.count - 1) }
            guard count >= 0 else { throw error("read the link", path(), errno: errno) }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// The kind of the entry `name`, not following a link; nil when there is none.
        func kind(of name: String) -> EntryKind? {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return FileSystem.kind(mode: info.st_mode)
        }

        /// The kind of the entry `name`, not following a link.
        func kind(of name: UnsafePointer<CChar>) -> EntryKind? {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return FileSystem.kind(mode: info.st_mode)
        }

        /// The permission bits of the entry `name`, when it exists.
        private func mode(of name: String) -> mode_t? {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return info.st_mode & 0o7777
        }

        /// The whole regular file `name`, opened without following a link and without blocking: a FIFO, a socket or
        /// a device is refused, never waited on. Nil when there is no such entry.
        func readRegularFile(_ name: String, path: @autoclosure () -> String) throws(KanbanError) -> [UInt8]? {
            let opened = retrying { openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
            guard opened >= 0 else {
                if errno == ENOENT { return nil }
                if errno == ELOOP { throw notRegularFile(path()) }
                throw error("read", path(), errno: errno)
            }
            defer { close(opened) }
            try requireRegularFile(opened, path: path())
            return try readAll(opened, path: path())
        }

        /// Writes `bytes` to `name` atomically: into ``FileSystem/temporaryName(for:)`` beside it, flushed to disk,
        /// given the old file's permissions, then renamed over `name`. Readers see the old or the new file, never
        /// half. A link named `name` is replaced, not written through.
        func writeAtomically(_ bytes: [UInt8], to name: String, path: @autoclosure () -> String) throws(KanbanError) {
            let temporary = try writeTemporary(bytes, for: name, mode: mode(of: name) ?? 0o644, path: path())
            if retrying({ renameat(descriptor, temporary, descriptor, name) }) != 0 {
                let code = errno
                unlinkat(descriptor, temporary, 0)
                throw error("write", path(), errno: code)
            }
        }

        /// Creates `name`, which must not exist yet, atomically: written aside, then linked into place.
        /// - Throws: ``KanbanError/Code/alreadyExists`` when `name` exists.
        func createExclusively(_ bytes: [UInt8], at name: String, path: @autoclosure () -> String) throws(KanbanError) {
            let temporary = try writeTemporary(bytes, for: name, mode: 0o644, path: path())
            defer { unlinkat(descriptor, temporary, 0) }
            if retrying({ linkat(descriptor, temporary, descriptor, name, 0) }) != 0 {
                let code = errno
                if code == EEXIST { throw KanbanError(.alreadyExists, "'\(path())' already exists") }
                // File systems without hard links: check, then rename (the board's lock keeps others out).
                guard code == EPERM || code == EOPNOTSUPP || code == EMLINK, kind(of: name) == nil else {
                    throw error("create", path(), errno: code)
                }
                if retrying({ renameat(descriptor, temporary, descriptor, name) }) != 0 { throw error("create", path(), errno: errno) }
            }
        }

        /// Writes `bytes` to a fresh temporary file for `name` and returns its name.
        private func writeTemporary(_ bytes: [UInt8], for name: String, mode: mode_t, path: @autoclosure () -> String) throws(KanbanError) -> String {
            let temporary = temporaryName(for: name)
            unlinkat(descriptor, temporary, 0)  // left by an interrupted write
            let opened = retrying { openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
            guard opened >= 0 else { throw error("write", path(), errno: errno) }
            var written = 0
            let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
                while written < buffer.count {
                    let count = retrying { write(opened, buffer.baseAddress! + written, buffer.count - written) }
                    if count < 0 { return errno }
                    written += count
                }
                return nil
            }
            var code = failure
            if code == nil {
                _ = fchmod(opened, mode)
                if fsync(opened) != 0 { code = errno }
            }
            close(opened)
            if let code {
                unlinkat(descriptor, temporary, 0)
                throw error("write", path(), errno: code)
            }
            return temporary
        }

        /// Removes the entry `name` (a link itself, never what it points to); nothing when it is already gone.
        func remove(_ name: String, path: @autoclosure () -> String) throws(KanbanError) {
            if unlinkat(descriptor, name, 0) != 0 && errno != ENOENT { throw error("remove", path(), errno: errno) }
        }

        /// Makes the directory `name`; nothing when it exists.
        func makeDirectory(_ name: String, path: @autoclosure () -> String) throws(KanbanError) {
            if mkdirat(descriptor, name, 0o755) != 0 && errno != EEXIST { throw error("create directory", path(), errno: errno) }
        }

        /// Removes the directory `name` when it is empty; false otherwise.
        @discardableResult
        func removeDirectoryIfEmpty(_ name: String) -> Bool {
            unlinkat(descriptor, name, AT_REMOVEDIR) == 0
        }

        /// Flushes the directory itself to disk, so that the renames and removals in it survive a power cut.
        func synchronize() {
            _ = fsync(descriptor)
        }

        /// Whether the directory has no entries but `.` and `..` (read no further than the first).
        var isEmpty: Bool {
            let copy = retrying { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
            guard copy >= 0, let stream = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                return false
            }
            defer { closedir(stream) }
            rewinddir(stream)
            while let entry = readdir(stream) {
                let bytes = UnsafeRawPointer(entry.name).assumingMemoryBound(to: UInt8.self)
                if bytes[0] == 0x2E && (bytes[1] == 0 || (bytes[1] == 0x2E && bytes[2] == 0)) { continue }
                return false
            }
            return true
        }

        /// The entries except `.` and `..`, in `readdir` order.
        func entries() throws(KanbanError) -> [Entry] {
            var result: [Entry] = []
            try forEachEntry { name, kind in result.append(Entry(name: String(decoding: name, as: UTF8.self), kind: kind)) }
            return result
        }

        /// Calls `body` with the name (its bytes, in place) and kind of each entry except `.` and `..`, in
        /// `readdir` order, making no string: a board's load lists every card file.
        func forEachEntry(_ body: (UnsafeBufferPointer<UInt8>, EntryKind) -> Void) throws(KanbanError) {
            try forEachEntryWithInode { name, kind, _ in body(name, kind) }
        }

        /// ``forEachEntry(_:)`` with each entry's inode number as the directory lists it (what the name leads to
        /// now: a file replaced by a rename has another).
        func forEachEntryWithInode(_ body: (UnsafeBufferPointer<UInt8>, EntryKind, UInt64) -> Void) throws(KanbanError) {
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
                body(UnsafeBufferPointer(start: bytes, count: strlen(entry.name)), kind, UInt64(entry.pointee.d_ino))
            }
        }

        /// The whole file whose name starts `nameOffset` bytes into `relativePath` (a path relative to the board
        /// whose directory part is this directory), opened relative to this directory.
        func readFile(_ relativePath: String, nameOffset: Int, fullPath: @autoclosure () -> String,
                      scratch: ReadBuffer) throws(KanbanError) -> [UInt8] {
            try withContents(of: relativePath, nameOffset: nameOffset, fullPath: fullPath(), scratch: scratch) { Array($0) }
        }

        /// Calls `body` with the bytes of the file ``readFile(_:nameOffset:fullPath:scratch:)`` reads, read into
        /// `scratch` when they fit, so that no array is made for them; the bytes are valid only during the call.
        /// The file is opened without following a link and without blocking, and must be a regular file.
        func withContents<Result>(of relativePath: String, nameOffset: Int, fullPath: @autoclosure () -> String, scratch: ReadBuffer,
                                  _ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(KanbanError) -> Result {
            try withContentsAndStatus(of: relativePath, nameOffset: nameOffset, fullPath: fullPath(), scratch: scratch) { bytes, _ in
                body(bytes)
            }
        }

        /// As ``withContents(of:nameOffset:fullPath:scratch:_:)``, and gives `body` too what `fstat` said of the file
        /// when it was opened, before it was read (what the board index keeps of it).
        func withContentsAndStatus<Result>(of relativePath: String, nameOffset: Int, fullPath: @autoclosure () -> String, scratch: ReadBuffer,
                                           _ body: (UnsafeBufferPointer<UInt8>, stat) -> Result) throws(KanbanError) -> Result {
            let opened = relativePath.withCString { path in
                retrying { openat(descriptor, path + nameOffset, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
            }
            guard opened >= 0 else {
                if errno == ELOOP { throw notRegularFile(relativePath) }
                throw error("read", fullPath(), errno: errno)
            }
            defer { close(opened) }
            var status = stat()
            guard fstat(opened, &status) == 0 else { throw error("read", fullPath(), errno: errno) }
            guard FileSystem.kind(mode: status.st_mode) == .file else { throw notRegularFile(relativePath) }
            let count = retrying { read(opened, scratch.base, scratch.capacity) }
            if count < 0 { throw error("read", fullPath(), errno: errno) }
            let first = UnsafeBufferPointer(start: scratch.base.assumingMemoryBound(to: UInt8.self), count: count)
            // A short read of a regular file is its end.
            if count < scratch.capacity { return body(first, status) }
            let bytes = Array(first) + (try readAll(opened, path: fullPath(), scratch: scratch))
            return bytes.withUnsafeBufferPointer { body($0, status) }
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
