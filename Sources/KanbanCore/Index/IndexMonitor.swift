#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a running monitor of the board's files (`kanban watch`, in the manner of git's fsmonitor daemon) says has
/// changed since an earlier answer: with it a scan takes the index's entry of a file nobody touched without asking
/// the file system for the file's stat data, which is most of what listing a large board costs.
///
/// The monitor holds inotify watches on the board's card directories and keeps, for each path, the number of the
/// last change it saw; a token names a monitor and a point in its count. Before answering it makes a file of its
/// own (a cookie) in a directory it also watches and waits for that file's event, so that every change made before
/// the question was asked is in the answer (inotify keeps one queue in order).
///
/// The index keeps the token of the answer its scan started from. An entry in an index with token `T` either
/// matches its file or its file has changed after `T`, so the answer since `T` names it: that holds for entries
/// the scan read or stat'ed (they match as of after `T`'s successor was asked), and for entries it carried because
/// the answer did not name them.
package struct IndexMonitorAnswer: Sendable, Equatable {
    /// Names the monitor and the point this answer reaches: what to ask since next time.
    package var token: String
    /// The paths changed since the token asked about (relative to the board: `cards/todo/x.md`), with directories
    /// whose every file may have changed as `cards/todo/`; nil when the monitor cannot tell (another monitor's or
    /// no token, changes lost to an overflow, the card directories changed as a whole): every file is checked.
    package var changed: Set<String>?

    package init(token: String, changed: Set<String>?) {
        self.token = token
        self.changed = changed
    }

    /// The paths in `directory` that may have changed since the token asked about (a superset: the answer's other
    /// paths too); nil when every file there may have (the answer is "everything", or names the directory whole).
    /// Asked once for a directory, so that each of its files costs one look-up at most.
    func changedPaths(in directory: String) -> Set<String>? {
        guard let changed, !changed.contains(directory + "/") else { return nil }
        return changed
    }
}

/// The monitor's wire format, shared by the commands that ask (``IndexMonitorClient``) and the monitor that answers
/// (`KanbanWatch`'s `IndexMonitor`), over a Unix socket beside the board's index.
///
/// Every field ends with a NUL byte. A question: `kanban-index-monitor 1`, then the token asked about (empty for
/// none). An answer: `kanban-index-monitor 1`, the new token, `*` (everything may have changed) or `=`, then for
/// `=` each changed path, and an empty field ending the answer, so an answer cut short is never taken as whole.
package enum IndexMonitorProtocol {
    package static let greeting = "kanban-index-monitor 1"
    /// Answers name at most this many paths; beyond, the monitor answers `*`.
    package static let maximumPaths = 50_000
    /// Longest question or answer field (a path, a token).
    package static let maximumField = 4_096

    package static func question(since token: String?) -> [UInt8] {
        Array(greeting.utf8) + [0] + Array((token ?? "").utf8) + [0]
    }

    /// The token asked about; nil when `bytes` is not a whole question; `.some(nil)` for a question with no token.
    package static func parseQuestion(_ bytes: [UInt8]) -> String?? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[2].isEmpty, fields[0].elementsEqual(greeting.utf8),
              fields[1].count <= maximumField, let token = String(validating: fields[1], as: UTF8.self) else { return nil }
        return .some(token.isEmpty ? nil : token)
    }

    package static func answer(_ answer: IndexMonitorAnswer) -> [UInt8] {
        var bytes = Array(greeting.utf8) + [0] + Array(answer.token.utf8) + [0]
        if let changed = answer.changed {
            bytes += Array("=".utf8) + [0]
            for path in changed.sorted() where !path.isEmpty && path.utf8.count <= maximumField && !path.utf8.contains(0) {
                bytes += Array(path.utf8) + [0]
            }
        } else {
            bytes += Array("*".utf8) + [0]
        }
        return bytes + [0]
    }

    /// The answer in `bytes`; nil unless they are one whole answer.
    package static func parseAnswer(_ bytes: [UInt8]) -> IndexMonitorAnswer? {
        guard bytes.last == 0 else { return nil }
        let fields = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false)
        // greeting, token, kind, paths..., and the empty field that ends the answer.
        guard fields.count >= 4, fields.last!.isEmpty, fields[0].elementsEqual(greeting.utf8), !fields[1].isEmpty,
              let token = String(validating: fields[1], as: UTF8.self) else { return nil }
        let paths = fields.dropFirst(3).dropLast()
        switch String(decoding: fields[2], as: UTF8.self) {
        case "*" where paths.isEmpty:
            return IndexMonitorAnswer(token: token, changed: nil)
        case "=":
            var changed = Set<String>()
            for path in paths {
                guard !path.isEmpty, let text = String(validating: path, as: UTF8.self) else { return nil }
                changed.insert(text)
            }
            return IndexMonitorAnswer(token: token, changed: changed)
        default:
            return nil
        }
    }
}

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
