#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Linux and Apple's systems differ, in one place: every other file of KanbanWatch is the same on both.
///
/// CI builds and tests the Linux branches; the Darwin branches are written from Darwin's headers and not built here.
/// Besides these, inotify exists on Linux only: `Inotify/` is compiled there alone, and
/// ``BoardWatchers/make(for:mechanism:options:onNotice:onEvent:)`` polls elsewhere.
enum Platform {
    /// A connected pair of stream sockets, both close-on-exec, non-blocking when `nonBlocking`, and never raising
    /// SIGPIPE on a send (see ``sendFlags``); the descriptors, or `errno`.
    static func socketPair(nonBlocking: Bool) -> Result<(Int32, Int32), SystemCallError> {
        var descriptors: [Int32] = [-1, -1]
        #if os(Linux)
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            return .failure(SystemCallError(call: "socketpair", code: errno))
        }
        #else
        // No SOCK_CLOEXEC: set at once, before this thread starts a child. No MSG_NOSIGNAL: SO_NOSIGPIPE instead.
        guard socketpair(AF_UNIX, SOCK_STREAM, 0, &descriptors) == 0 else {
            return .failure(SystemCallError(call: "socketpair", code: errno))
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        return .success((descriptors[0], descriptors[1]))
    }

    /// An opaque identity of the calling thread: `pthread_t` is an integer on Linux and a pointer on Darwin.
    static func currentThread() -> UInt {
        #if os(Linux)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// A file's modification and status-change times, and its device number as an unsigned value (`dev_t` is
    /// unsigned on Linux and a signed 32-bit number on Darwin).
    static func times(of info: stat) -> (modified: timespec, changed: timespec, device: UInt64) {
        #if os(Linux)
        (info.st_mtim, info.st_ctim, UInt64(info.st_dev))
        #else
        (info.st_mtimespec, info.st_ctimespec, UInt64(UInt32(bitPattern: info.st_dev)))
        #endif
    }
}
