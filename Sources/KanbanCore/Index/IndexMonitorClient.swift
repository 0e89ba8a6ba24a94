#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the monitor of a board, if one runs, what changed.
package enum IndexMonitorClient {
    /// How long a command waits for an answer before it goes on without one (checking every file, as with no
    /// monitor).
    static let timeoutMilliseconds: Int32 = 500

    /// The answer of the monitor listening at `socketPath` since `token`; nil when none listens, it is not this
    /// user's, or it does not answer in time.
    package static func ask(_ socketPath: String, since token: String?) -> IndexMonitorAnswer? {
        guard let descriptor = connection(to: socketPath) else { return nil }
        defer { close(descriptor) }
        // Only a monitor run by the same user is believed: another could lie about what changed. One stopped (a
        // `kanban watch` suspended with Ctrl-Z) cannot answer: it is not waited for at all.
        guard let peer = peer(of: descriptor), peer.user == getuid(), !(peer.process.map(isStopped) ?? false) else { return nil }
        // The question ends where the writing side is shut.
        guard sendAll(IndexMonitorProtocol.question(since: token), on: descriptor), shutdown(descriptor, Int32(SHUT_WR)) == 0,
              let bytes = receiveAll(from: descriptor, limit: IndexMonitorProtocol.maximumPaths * (IndexMonitorProtocol.maximumField + 1))
        else { return nil }
        return IndexMonitorProtocol.parseAnswer(bytes)
    }

    /// A connected stream socket to `path`, non-blocking; nil when none listens there or the path is too long.
    package static func connection(to path: String) -> Int32? {
        guard var address = socketAddress(path) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                FileSystem.retrying { connect(descriptor, generic, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// The address of the socket at `path`; nil when the path does not fit one (about a hundred bytes).
    package static func socketAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Writes all of `bytes` to the non-blocking `descriptor`, waiting up to the timeout.
    package static func sendAll(_ bytes: [UInt8], on descriptor: Int32, timeoutMilliseconds: Int32 = timeoutMilliseconds) -> Bool {
        var written = 0
        let deadline = FileStamp.now() + Int64(timeoutMilliseconds) * 1_000_000
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                written += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                guard wait(for: Int16(POLLOUT), on: descriptor, until: deadline) else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// Everything the peer sends until it closes the connection; nil past `limit` bytes or the timeout.
    package static func receiveAll(from descriptor: Int32, limit: Int, timeoutMilliseconds: Int32 = timeoutMilliseconds) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = FileStamp.now() + Int64(timeoutMilliseconds) * 1_000_000
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                bytes += buffer[0..<count]
                if bytes.count > limit { return nil }
            } else if count == 0 {
                return bytes
            } else if errno == EAGAIN || errno == EINTR {
                guard wait(for: Int16(POLLIN), on: descriptor, until: deadline) else { return nil }
            } else {
                return nil
            }
        }
    }

    /// The process (Linux only) and the user at the other end of the Unix socket `descriptor`; nil when they
    /// cannot be told.
    package static func peer(of descriptor: Int32) -> (process: Int32?, user: uid_t)? {
        #if os(Linux)
        // `struct ucred`: pid, uid, gid (the C module does not bring the type in).
        var credentials: (pid: Int32, user: uid_t, group: gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, uid_t, gid_t)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              Int(length) == MemoryLayout<(Int32, uid_t, gid_t)>.size else { return nil }
        return (credentials.pid > 0 ? credentials.pid : nil, credentials.user)
        #else
        var user = uid_t()
        var group = gid_t()
        return getpeereid(descriptor, &user, &group) == 0 ? (nil, user) : nil
        #endif
    }

    /// Whether process `pid` is stopped (by a signal or a debugger), as `/proc/<pid>/stat` says.
    static func isStopped(_ pid: Int32) -> Bool {
        guard let bytes = try? FileSystem.readFile("/proc/\(pid)/stat"),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count else { return false }
        // `pid (name) S ...`: the state follows the name, which may itself hold parentheses.
        return bytes[close + 2] == UInt8(ascii: "T") || bytes[close + 2] == UInt8(ascii: "t")
    }

    /// Waits until `descriptor` is ready for `events`; false at `deadline` (nanoseconds since 1970).
    private static func wait(for events: Int16, on descriptor: Int32, until deadline: Int64) -> Bool {
        while true {
            let left = (deadline - FileStamp.now()) / 1_000_000
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, Int64(Int32.max))))
            if ready > 0 { return true }
            if ready < 0 && errno == EINTR { continue }
            return false
        }
    }
}
