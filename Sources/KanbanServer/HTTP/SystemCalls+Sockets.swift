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
        let descriptor = SocketPlatform.streamSocket(family: family)
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

    /// Accepts a connection on `listener` (close-on-exec).
    /// - Returns: The connection's descriptor, or the `errno` of the failure (`EMFILE` when the process has no
    ///   descriptor left, `EAGAIN` when none was waiting after all).
    static func acceptConnection(_ listener: Int32) -> Result<Int32, SocketFailure> {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                SocketPlatform.prepareConnection(descriptor)
                return .success(descriptor)
            }
            let code = errno
            if code != EINTR { return .failure(SocketFailure(call: "accept", code: code)) }
        }
    }

    /// Ends a connection the server is done with so that the client reads everything that was sent: stops sending
    /// (the client sees the end), then reads and discards what the client still sends, until it closes, for at most
    /// `milliseconds` and `limit` bytes. Closing with unread bytes would make the kernel answer with a reset, which
    /// can destroy the response before the client has read it. The caller closes the descriptor afterwards.
    static func finishConnection(_ descriptor: Int32, milliseconds: Int = 1000, limit: Int = 256 * 1024) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16_384)
        var discarded = 0
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        while discarded < limit {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let wait = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard wait > 0, waitReadable(descriptor, milliseconds: wait) else { return }
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            discarded += count
        }
    }

    /// How many descriptors this process may have open (the soft `RLIMIT_NOFILE`); nil when it is unlimited or
    /// cannot be read.
    static func descriptorLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else { return nil }  // RLIM_INFINITY is larger
        return Int(limit.rlim_cur)
    }

    /// The addresses of this machine's network interfaces that are up, as text (`192.168.1.20`, `fe80::1`), IPv4 and
    /// IPv6 as asked; link-local IPv6 addresses are left out (a browser cannot name them in a Host header).
    package static func interfaceAddresses(ipv4: Bool, ipv6: Bool) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(address.pointee.sa_family) {
            case AF_INET where ipv4:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            case AF_INET6 where ipv6:
                let isLinkLocal = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer -> Bool in
                    var raw = pointer.pointee.sin6_addr
                    let bytes = withUnsafeBytes(of: &raw) { Array($0) }
                    guard !(bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80) else { return true }
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return false
                }
                if isLinkLocal { continue }
            default:
                continue
            }
            let found = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !found.isEmpty && !addresses.contains(found) { addresses.append(found) }
        }
        return addresses
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
                send(descriptor, buffer.baseAddress! + offset, bytes.count - offset, SocketPlatform.sendFlags)
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
package struct SocketFailure: Error, Sendable {
    package var message: String
    /// The `errno` of the call that failed, when one did.
    package var code: Int32 = 0

    init(message: String) {
        self.message = message
    }

    init(call: String, code: Int32) {
        message = "\(call): \(String(cString: strerror(code)))"
        self.code = code
    }
}
