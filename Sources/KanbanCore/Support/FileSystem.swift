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
        // One read into a buffer on the stack covers nearly every card; a short read of a regular file is its end.
        let chunkSize = 65_536
        var failure: Int32 = 0
        let bytes = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { buffer -> [UInt8] in
            var result: [UInt8] = []
            while true {
                let count = retrying { read(descriptor, buffer.baseAddress, chunkSize) }
                if count < 0 {
                    failure = errno
                    return []
                }
                if count == 0 { return result }
                if result.isEmpty && count < chunkSize { return Array(buffer[0..<count]) }
                result.append(contentsOf: buffer[0..<count])
                if count < chunkSize { return result }
            }
        }
        if failure != 0 { throw error("read", path, errno: failure) }
        return bytes
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
    static func entries(of path: String) throws(KanbanError) -> [Entry] {
        guard let stream = opendir(path) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw error("list", path, errno: errno)
        }
        defer { closedir(stream) }
        var result: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = Self.kind(of: path + "/" + name) ?? .other
            default: kind = .other
            }
            result.append(Entry(name: name, kind: kind))
        }
        return result
    }

    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func kind(mode: mode_t) -> EntryKind {
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
