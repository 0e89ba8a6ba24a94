#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Linux and macOS differ for the servers' sockets, in one place.
///
/// CI builds and tests the Linux branches; the Darwin branches are written from Darwin's headers and not built here.
package enum SocketPlatform {
    /// A new TCP socket of `family`, close-on-exec, or -1 with `errno` set.
    package static func streamSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
            return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(family, SOCK_STREAM, 0)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        #endif
    }

    /// Readies a connection `accept` returned: close-on-exec, and on Darwin no SIGPIPE when the peer has gone
    /// (Linux says so on each send instead; see ``sendFlags``).
    package static func prepareConnection(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// The flags for `send(2)` on a connection so that a peer gone away is an error, not SIGPIPE.
    package static var sendFlags: Int32 {
        #if canImport(Darwin)
            0  // the connection has SO_NOSIGPIPE (see prepareConnection)
        #else
            Int32(MSG_NOSIGNAL)
        #endif
    }
}
