#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls of `kanban serve`, each capturing `errno` at once and retrying on `EINTR`; descriptors are
/// opened close-on-exec, so a git child never holds a connection open.
extension SystemCalls {
    /// A listening TCP socket bound to `address` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    /// - Returns: The descriptor and the port it is bound to, or a sentence saying why not.
    static func openListener(address: String, port: UInt16, backlog: Int32 = 512) -> Result<(descriptor: Int32, port: UInt16), SocketFailure> {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            family = AF_INET6
        } else {
            return .failure(SocketFailure(message: "'\(address)' is not an IPv4 or IPv6 address"))
        }
        let descriptor = Platform.streamSocket(family: family)
        guard descriptor >= 0 else { return .failure(SocketFailure(call: "socket", code: errno)) }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = v4
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = v6
            bound = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            return .failure(SocketFailure(call: "bind", code: code))
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(SocketFailure(call: "listen", code: code))
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(descriptor)
            return .failure(SocketFailure(call: "getsockname", code: code))
        }
        let boundPort = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            family == AF_INET
                ? pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                : pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
        }
        return .success((descriptor, boundPort))
    }

    /// Accepts a connection on `listener` (close-on-exec); nil when none is waiting or the call failed.
    static func acceptConnection(_ listener: Int32) -> Int32? {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                Platform.prepareConnection(descriptor)
                return descriptor
            }
            if errno != EINTR { return nil }
        }
    }

    /// Waits until `descriptor` can be read (or has hung up) or `milliseconds` pass.
    /// - Returns: Whether it is ready; false on a time-out.
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let count = poll(&entry, 1, milliseconds)
            if count >= 0 { return count > 0 }
            if errno != EINTR { return true }  // let the read report it
        }
    }

    /// Receives what is there from a connection, at most `limit` bytes.
    /// - Returns: The bytes; empty when the peer closed or the connection failed.
    static func receive(_ descriptor: Int32, limit: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno != EINTR { return [] }
        }
    }

    /// Sends all of `bytes` on a connection, never raising SIGPIPE.
    /// - Returns: Whether everything was sent (false when the peer is gone or the send timed out).
    @discardableResult
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + offset, bytes.count - offset, Platform.sendFlags)
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Sets the time a blocking send on `descriptor` may wait (`SO_SNDTIMEO`), so a client that reads nothing cannot
    /// hold a thread.
    static func setSendTimeout(_ descriptor: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Shuts a connection down for both directions, so a thread blocked on it returns.
    static func shutDown(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

/// Why a socket could not be set up: one sentence.
struct SocketFailure: Error, Sendable {
    var message: String

    init(message: String) {
        self.message = message
    }

    init(call: String, code: Int32) {
        message = "\(call): \(String(cString: strerror(code)))"
    }
}
