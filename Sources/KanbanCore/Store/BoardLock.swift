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
                let holder = Platform.lockHolder(of: descriptor).map { " (\($0))" } ?? ""
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
