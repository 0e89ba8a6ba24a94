#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Linux and macOS differ for the benchmark, in one place. CI builds the Linux branches; the Darwin branches
/// are written from Darwin's headers and not built here. (Some figures read `/proc`, and are left out where there
/// is none.)
enum Platform {
    /// This process's environment as `posix_spawn` takes it: Darwin declares no `environ` for programs to use.
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }

    #if canImport(Darwin)
    /// Spawn file actions, uninitialised: an opaque pointer on Darwin, a structure on Linux.
    typealias SpawnFileActions = posix_spawn_file_actions_t?
    static func spawnFileActions() -> SpawnFileActions { nil }
    #else
    /// Spawn file actions, uninitialised: an opaque pointer on Darwin, a structure on Linux.
    typealias SpawnFileActions = posix_spawn_file_actions_t
    static func spawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
    #endif

    /// This process's resource usage so far, all threads included.
    static func usageOfThisProcess() -> rusage {
        var usage = rusage()
        #if canImport(Glibc)
        _ = getrusage(RUSAGE_SELF.rawValue, &usage)  // Glibc imports RUSAGE_SELF as an enum case
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    /// A new TCP socket of `family` that never raises SIGPIPE when sent to with ``sendFlags``, or -1.
    static func streamSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        var on: Int32 = 1
        if descriptor >= 0 { _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) }
        return descriptor
        #endif
    }

    /// The flags for `send(2)` on a socket from ``streamSocket(family:)``.
    static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0  // the socket has SO_NOSIGPIPE
        #endif
    }

    /// `connect(2)`, named by module where a method of the same name hides it.
    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }
}
