#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KanbanCore

/// A failure that makes the benchmark's figures meaningless: the run stops and exits 1.
struct BenchmarkError: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}

/// The system calls the benchmark makes, in one place: errno is captured at once, `EINTR` is retried and
/// descriptors are opened close-on-exec, so that children inherit only what they are given.
enum POSIX {
    static func error(_ action: String, _ path: String, errno code: Int32) -> BenchmarkError {
        BenchmarkError("cannot \(action) '\(path)': \(String(cString: strerror(code)))")
    }

    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Creates or truncates `path` and writes `bytes` to it: one open, as few writes as the kernel allows, one close.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(BenchmarkError) {
        let descriptor = retrying { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw error("create", path, errno: errno) }
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let count = retrying { write(descriptor, base + written, buffer.count - written) }
                if count < 0 { return errno }
                written += count
            }
            return nil
        }
        let closed = close(descriptor)
        if let failure { throw error("write", path, errno: failure) }
        if closed != 0 { throw error("write", path, errno: errno) }
    }

    /// The whole file, read the way KanbanCore reads a card (one `fstat`, then reads into a reused chunk).
    static func readFile(_ path: String) throws(BenchmarkError) -> [UInt8] {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw error("read", path, errno: errno) }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_size > 0 { result.reserveCapacity(Int(info.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw error("read", path, errno: errno) }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); nil when it cannot be read.
    static func readFilePrefix(_ path: String, count: Int) -> [UInt8]? {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got: Int = bytes.withUnsafeMutableBytes { raw in
                let start = raw.baseAddress! + filled
                return retrying { read(descriptor, start, count - filled) }
            }
            if got < 0 { return nil }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    static func makeDirectory(_ path: String) throws(BenchmarkError) {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw error("create directory", path, errno: errno) }
    }

    /// Removes a file; one that is already gone is fine.
    static func remove(_ path: String) throws(BenchmarkError) {
        if unlink(path) != 0 && errno != ENOENT { throw error("remove", path, errno: errno) }
    }

    /// A new private directory `<parent>/<prefix>.XXXXXX`.
    static func makeTemporaryDirectory(in parent: String, prefix: String) throws(BenchmarkError) -> String {
        var template = Array("\(parent)/\(prefix).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw error("create a temporary directory in", parent, errno: errno) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory except `.` and `..`, with whether each is a directory (not following links).
    static func entries(of path: String) throws(BenchmarkError) -> [(name: String, isDirectory: Bool)] {
        guard let stream = opendir(path) else { throw error("list", path, errno: errno) }
        defer { closedir(stream) }
        var result: [(name: String, isDirectory: Bool)] = []
        while let entry = readdir(stream) {
            let name = String(cString: entry.name)  // read in place; see KanbanCore's `name`
            if name == "." || name == ".." { continue }
            var isDirectory = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var info = stat()
                isDirectory = lstat(path + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            }
            result.append((name, isDirectory))
        }
        return result
    }

    /// Removes `path` and everything under it, without following symbolic links.
    static func removeTree(_ path: String) throws(BenchmarkError) {
        for entry in try entries(of: path) {
            let child = path + "/" + entry.name
            if entry.isDirectory {
                try removeTree(child)
            } else {
                try remove(child)
            }
        }
        if rmdir(path) != 0 && errno != ENOENT { throw error("remove directory", path, errno: errno) }
    }

    /// Whether `path` names a regular file (following links).
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` names a regular file this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        isFile(path) && access(path, X_OK) == 0
    }

    /// This program's own executable, so that it can run itself as a child.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments.first ?? "kanban-bench"
    }

    /// Writes `text` to standard error, unbuffered, so that progress shows up as it happens.
    static func printError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { buffer in retrying { write(STDERR_FILENO, buffer.baseAddress, buffer.count) } }
            if count <= 0 { return }
            bytes = bytes.dropFirst(count)
        }
    }

    static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
