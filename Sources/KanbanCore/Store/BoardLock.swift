#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The board's exclusive lock: an advisory `flock` on the board directory, held by every change so that two
/// processes changing the board at once lose nothing.
///
/// Waiting is bounded: a lock held longer than the timeout ends the wait with ``KanbanError/Code/locked``, naming
/// the process that holds it where the system says (Linux's `/proc/locks`). The lock is reentrant within a thread
/// (or task): an operation running inside another that holds it does not take it again (see
/// ``BoardStore/withExclusiveAccess(_:)``).
final class BoardLock {
    /// The boards whose lock the current thread or task holds.
    @TaskLocal static var held: Set<String> = []

    private var descriptor: Int32

    /// Waits until the lock on `directory` is held, at most `timeout`.
    /// - Throws: ``KanbanError/Code/locked`` when another process keeps it longer.
    init(directory: String, timeout: Duration) throws(KanbanError) {
        descriptor = FileSystem.retrying { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw FileSystem.error("lock", directory, errno: errno) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            // The descriptor is closed here and marked so, because deinit (which runs when init throws once every
            // property is set) unlocks too: closing it twice would close a descriptor someone else has opened since.
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                descriptor = -1
                throw FileSystem.error("lock", directory, errno: code)
            }
            guard clock.now < deadline else {
                let holder = Self.holder(of: descriptor).map { " (\($0))" } ?? ""
                close(descriptor)
                descriptor = -1
                throw KanbanError(.locked, "another kanban process\(holder) has been changing the board for \(Self.describe(timeout)); gave up waiting for it. Try again when it has finished")
            }
            Self.sleep(pause)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    func unlock() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }

    /// `pid 123: kanban sync` for the process holding the `flock` on the file `descriptor` is open on, from
    /// `/proc/locks` (Linux); nil where the system does not say.
    static func holder(of descriptor: Int32) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let inode = "\(info.st_ino)"
        for line in locks.split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5].split(separator: ":").last.map(String.init) == inode,
                  let pid = Int32(fields[4]), pid != getpid() else { continue }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                .map { data in data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
                .map { words in words.enumerated().map { $0.offset == 0 ? ($0.element as NSString).lastPathComponent : $0.element }.joined(separator: " ") }
            return "pid \(pid)" + (command.map { ": \($0)" } ?? "")
        }
        return nil
    }

    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000) ms" }
        return "\(seconds) s"
    }

    static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
