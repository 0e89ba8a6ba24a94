#if os(Linux)
import Dispatch
import Glibc
import KanbanCore
import Synchronization

/// Tells the commands run on a board what changed in its card directories since they last asked, so that a
/// command takes the index's entry of every file nobody touched without looking at the file's stat data: in the
/// manner of git's fsmonitor daemon. `kanban watch` (and `serve`, `tui` and `mcp`, which watch too) runs one.
///
/// It holds inotify watches on the board directory, `cards/`, every column directory and `archive/`, and counts
/// the changes it sees: for each path, the number of its last change. A command asks with the token of its index
/// (``IndexMonitorAnswer``) over a Unix socket beside the index, and is told the paths changed since, or that
/// everything may have (a token of another monitor, an overflow of inotify's queue, a column directory that came,
/// went or was renamed, `cards/` or `archive/` replaced). Before answering, the monitor creates a file in a
/// directory it watches with the same inotify descriptor and waits for that file's event: every change made before
/// the question is then counted (inotify keeps one queue in order).
///
/// What it cannot see, it never vouches for: a column directory that is a link (or that cannot be watched) is named
/// whole in every answer. What inotify cannot see at all (a card file changed through a hard link from outside the
/// board, through a writable `mmap`, or by another machine on a network file system) is the documented limit.
public final class IndexMonitor: Sendable {
    private let events: WatchThread
    private let server: WatchThread
    private let journal: Journal
    private let socketPath: String
    private let socketIdentity: (device: UInt64, inode: UInt64)
    private let cookies: String

    /// Starts answering for `store`'s board; nil when the board has no index to serve (see
    /// ``BoardStore/IndexOptions``) or another monitor already answers for it.
    /// - Throws: ``KanbanError/Code/fileSystem`` when inotify or the socket cannot be set up.
    public static func start(for store: BoardStore) throws(KanbanError) -> IndexMonitor? {
        guard let place = store.indexMonitorPlace else { return nil }
        // A monitor that answers is left to do so; a socket nobody listens on is what a killed one left.
        if let descriptor = IndexMonitorClient.connection(to: place.socket) {
            close(descriptor)
            return nil
        }
        // The socket's directory (the index's, which may not have been written yet, or the user's own in /tmp), and
        // its parents; it must be this user's and not writable by everyone. (Each side checks the other's user id
        // too, so a socket another user put there is never believed; this keeps them from taking the place.)
        let directory = makeDirectories(enclosing: place.socket)
        _ = makeDirectories(enclosing: place.cookies)
        var owner = stat()
        guard lstat(directory, &owner) == 0, (owner.st_mode & S_IFMT) == S_IFDIR, owner.st_uid == getuid(), owner.st_mode & 0o002 == 0 else {
            throw KanbanError(.fileSystem, "cannot start the board monitor: \(directory) is not a directory of this user's own, or everyone may write to it")
        }
        let journal = try Journal(root: store.directory, cookies: place.cookies)
        let listener: Int32
        do throws(KanbanError) {
            guard let descriptor = try Self.listen(at: place.socket) else {
                journal.close()
                return nil
            }
            listener = descriptor
        } catch {
            journal.close()
            throw error
        }
        var info = stat()
        guard lstat(place.socket, &info) == 0 else {
            close(listener)
            journal.close()
            throw KanbanError(.fileSystem, "cannot start the board monitor: \(place.socket) went away")
        }
        let monitor: IndexMonitor
        do throws(KanbanError) {
            monitor = try IndexMonitor(journal: journal, socketPath: place.socket, identity: (UInt64(info.st_dev), UInt64(info.st_ino)),
                                       cookies: place.cookies)
        } catch {
            close(listener)
            unlink(place.socket)
            journal.close()
            throw error
        }
        monitor.run(listener: listener)
        return monitor
    }

    private init(journal: Journal, socketPath: String, identity: (device: UInt64, inode: UInt64), cookies: String) throws(KanbanError) {
        self.journal = journal
        self.socketPath = socketPath
        socketIdentity = identity
        self.cookies = cookies
        events = try WatchThread()
        server = try WatchThread()
    }

    /// Where the monitor answers (a Unix socket beside the board's index).
    public var path: String { socketPath }

    private func run(listener: Int32) {
        let journal = self.journal
        let events = self.events
        events.start(name: "kanban index monitor") {
            journal.follow(wake: events.wakeDescriptor)
        }
        let server = self.server
        let cookies = self.cookies
        server.start(name: "kanban index monitor socket") {
            Self.serve(listener: listener, journal: journal, cookies: cookies, wake: server.wakeDescriptor)
            close(listener)
        }
    }

    /// Stops answering and removes the socket (when it is still this monitor's); returns when both threads ended.
    public func stop() {
        server.requestStop()
        server.join()
        events.requestStop()
        events.join()
        var info = stat()
        if lstat(socketPath, &info) == 0, UInt64(info.st_dev) == socketIdentity.device, UInt64(info.st_ino) == socketIdentity.inode {
            unlink(socketPath)
        }
        journal.close()
    }

    // MARK: The socket

    /// A listening socket at `path`, replacing one nobody answers on; nil when another monitor got there first.
    private static func listen(at path: String) throws(KanbanError) -> Int32? {
        guard var address = IndexMonitorClient.socketAddress(path) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw KanbanError(.fileSystem, "cannot start the board monitor: socket: \(String(cString: strerror(errno)))") }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                close(descriptor)
                throw KanbanError(.fileSystem, "cannot start the board monitor: \(path) exists and is no socket")
            }
            unlink(path)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE { return nil }
            throw KanbanError(.fileSystem, "cannot start the board monitor: bind \(path): \(String(cString: strerror(code)))")
        }
        // Only this user may connect (and each side checks the other's user id as well).
        chmod(path, 0o600)
        guard Glibc.listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            unlink(path)
            throw KanbanError(.fileSystem, "cannot start the board monitor: listen: \(String(cString: strerror(code)))")
        }
        return descriptor
    }

    /// Answers questions one after another until `wake` is readable.
    private static func serve(listener: Int32, journal: Journal, cookies: String, wake: Int32) {
        var cookieNumber: UInt64 = 0
        while true {
            guard case .success(let readiness) = SystemCalls.waitReadable([listener, wake], timeoutMilliseconds: -1) else { return }
            if readiness.readable[1] { return }
            guard readiness.readable[0] else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            defer { close(connection) }
            // Close-on-exec at once (no command is started by this thread, but another thread may be starting
            // one), and non-blocking, so a slow asker is given up on.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            // A question is read until the asker shuts its writing side, a second at most.
            guard IndexMonitorClient.peer(of: connection)?.user == getuid(),
                  let question = IndexMonitorClient.receiveAll(from: connection, limit: IndexMonitorProtocol.maximumField * 2 + 64,
                                                               timeoutMilliseconds: 1_000),
                  let asked = IndexMonitorProtocol.parseQuestion(question) else { continue }
            cookieNumber += 1
            let answer = journal.answer(since: asked, cookie: cookieNumber, in: cookies)
            _ = IndexMonitorClient.sendAll(IndexMonitorProtocol.answer(answer), on: connection)
        }
    }
}

/// Makes the directory `path` is in and its parents (mode 0700 for those made); returns the directory.
private func makeDirectories(enclosing path: String) -> String {
    let parts = path.split(separator: "/").dropLast()
    for end in parts.indices { mkdir("/" + parts[...end].joined(separator: "/"), 0o700) }
    return "/" + parts.joined(separator: "/")
}

// MARK: - The journal

extension IndexMonitor {
    /// The inotify descriptor, its watches and the count of changes; the watches are touched on the events thread
    /// only, the count under a lock (the socket's thread reads it).
    final class Journal: Sendable {
        private let descriptor: Int32
        private let root: String
        private let cookies: String
        private let instance: String

        private struct Watches {
            var directoryByWatch: [Int32: String] = [:]
            var cookieWatch: Int32 = -1
        }

        private struct Count {
            var number: UInt64 = 0
            /// Answers since a number below this one are "everything".
            var everythingSince: UInt64 = 0
            var lastChange: [String: UInt64] = [:]
            /// Card directories that are not watched (links, or a watch that failed): named in every answer.
            var unwatched: Set<String> = []
            /// Whether the board's own directories cannot be watched: every answer is "everything".
            var isBlind = false
            /// Cookies waited for, by number, and whether each has been seen.
            var waiting: [UInt64: DispatchSemaphore] = [:]
        }

        private let watches: Mutex<Watches>
        private let count: Mutex<Count>
        /// How many paths the count keeps; past it, it forgets them all and answers "everything" to older tokens.
        static let capacity = 200_000
        static let mask = UInt32(bitPattern: IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(bitPattern: IN_ONLYDIR) | UInt32(bitPattern: IN_DONT_FOLLOW)

        init(root: String, cookies: String) throws(KanbanError) {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else {
                throw KanbanError(.fileSystem, "cannot start the board monitor: inotify_init1: \(String(cString: strerror(errno)))")
            }
            self.descriptor = descriptor
            self.root = root
            self.cookies = cookies
            instance = String(UInt64.random(in: 1...UInt64.max), radix: 36) + "-" + String(getpid())
            watches = Mutex(Watches())
            count = Mutex(Count())
            // The cookie directory is the monitor's own: what an earlier one left in it goes.
            mkdir(cookies, 0o700)
            if case .success(let entries) = SystemCalls.entries(of: cookies) {
                for entry in entries { unlink(cookies + "/" + entry.name) }
            }
            let cookieWatch = inotify_add_watch(descriptor, cookies, UInt32(bitPattern: IN_CREATE) | UInt32(bitPattern: IN_ONLYDIR))
            guard cookieWatch >= 0 else {
                let code = errno
                Glibc.close(descriptor)
                throw KanbanError(.fileSystem, "cannot start the board monitor: inotify_add_watch \(cookies): \(String(cString: strerror(code)))")
            }
            watches.withLock { $0.cookieWatch = cookieWatch }
            resynchronize()
        }

        func close() {
            Glibc.close(descriptor)
            if case .success(let entries) = SystemCalls.entries(of: cookies) {
                for entry in entries { unlink(cookies + "/" + entry.name) }
            }
            rmdir(cookies)
        }

        /// Watches the board, `cards/`, each column directory and `archive/` (again), and forgets what is gone;
        /// then answers "everything" to every token given before.
        private func resynchronize() {
            watches.withLock { watches in
                let cookieWatch = watches.cookieWatch
                var seen: [Int32: String] = [:]
                var unwatched: Set<String> = []
                func watch(_ directory: String) -> Bool {
                    let path = directory.isEmpty ? root : root + "/" + directory
                    let watch = inotify_add_watch(descriptor, path, Self.mask)
                    guard watch >= 0 else { return false }
                    seen[watch] = directory
                    return true
                }
                var isBlind = !watch("")
                if !watch("cards") {
                    // No column can be listed without `cards/`; one that is not a directory we can watch is never
                    // vouched for.
                    var info = stat()
                    if lstat(root + "/cards", &info) == 0 { isBlind = true }
                } else if case .success(let entries) = SystemCalls.entries(of: root + "/cards") {
                    for entry in entries {
                        let directory = "cards/" + entry.name
                        if entry.kind == .directory {
                            if !watch(directory) { unwatched.insert(directory) }
                        } else if entry.kind != .file {
                            // A link (or what the listing could not tell): the scan may follow it.
                            unwatched.insert(directory)
                        }
                    }
                }
                var info = stat()
                if !watch("archive"), lstat(root + "/archive", &info) == 0 { unwatched.insert("archive") }
                for (watch, _) in watches.directoryByWatch where seen[watch] == nil && watch != cookieWatch {
                    inotify_rm_watch(descriptor, watch)
                }
                watches.directoryByWatch = seen
                count.withLock { count in
                    count.number += 1
                    count.everythingSince = count.number
                    count.lastChange.removeAll()
                    count.unwatched = unwatched
                    count.isBlind = isBlind
                }
            }
        }

        /// Reads events until `wake` is readable.
        func follow(wake: Int32) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: MemoryLayout<inotify_event>.alignment)
            defer { buffer.deallocate() }
            while true {
                guard case .success(let readiness) = SystemCalls.waitReadable([descriptor, wake], timeoutMilliseconds: -1) else { return }
                if readiness.readable[1] { return }
                guard readiness.readable[0] else { continue }
                while true {
                    guard case .success(let length) = SystemCalls.readAvailable(descriptor, into: buffer), length > 0 else { break }
                    handle(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
                }
            }
        }

        /// Counts the events in `bytes` (whole events, as `read` gives them).
        private func handle(_ bytes: UnsafeRawBufferPointer) {
            let headerSize = MemoryLayout<inotify_event>.size
            var offset = 0
            var changed: [String] = []
            var seenCookies: [UInt64] = []
            var mustResynchronize = false
            let (directoryByWatch, cookieWatch) = watches.withLock { ($0.directoryByWatch, $0.cookieWatch) }
            while offset + headerSize <= bytes.count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + headerSize
                guard nameStart + length <= bytes.count else { break }
                let raw = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<(nameStart + length)])
                let name = String(decoding: raw[..<(raw.firstIndex(of: 0) ?? length)], as: UTF8.self)
                offset = nameStart + length
                func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }

                if has(IN_Q_OVERFLOW) {
                    mustResynchronize = true
                    continue
                }
                if watch == cookieWatch {
                    if has(IN_CREATE), let number = UInt64(name.split(separator: "-").last ?? "") { seenCookies.append(number) }
                    continue
                }
                guard let directory = directoryByWatch[watch] else { continue }
                let selfGone = has(IN_DELETE_SELF) || has(IN_MOVE_SELF) || has(IN_IGNORED) || has(IN_UNMOUNT)
                switch directory {
                case "":
                    if selfGone || name == "cards" || name == "archive" { mustResynchronize = true }
                case "cards":
                    // A column directory (or a link in the place of one) came, went or was renamed.
                    if selfGone || has(IN_CREATE) || has(IN_DELETE) || has(IN_MOVED_FROM) || has(IN_MOVED_TO) { mustResynchronize = true }
                default:
                    if selfGone {
                        mustResynchronize = true
                    } else {
                        // Any name, even no card's: it may become one by a rename.
                        changed.append(directory + "/" + name)
                    }
                }
                // Counted before the cookies that came after them are reported seen, so an answer includes them.
                if mustResynchronize || !seenCookies.isEmpty {
                    flush(&changed, resynchronizing: &mustResynchronize, cookies: &seenCookies)
                }
            }
            flush(&changed, resynchronizing: &mustResynchronize, cookies: &seenCookies)
        }

        private func flush(_ changed: inout [String], resynchronizing: inout Bool, cookies: inout [UInt64]) {
            if !changed.isEmpty {
                count.withLock { count in
                    for path in changed {
                        count.number += 1
                        count.lastChange[path] = count.number
                    }
                    if count.lastChange.count > Self.capacity {
                        count.lastChange.removeAll()
                        count.everythingSince = count.number
                    }
                }
                changed.removeAll()
            }
            if resynchronizing {
                resynchronize()
                resynchronizing = false
            }
            if !cookies.isEmpty {
                let waiting = count.withLock { count in cookies.compactMap { count.waiting.removeValue(forKey: $0) } }
                for semaphore in waiting { semaphore.signal() }
                cookies.removeAll()
            }
        }

        /// What changed since `token`, once every change made before this call has been counted (a cookie file's
        /// event seen); "everything" when that cannot be made sure of within a second.
        func answer(since token: String?, cookie number: UInt64, in directory: String) -> IndexMonitorAnswer {
            let semaphore = DispatchSemaphore(value: 0)
            count.withLock { $0.waiting[number] = semaphore }
            let path = "\(directory)/\(instance)-\(number)"
            let made = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
            var isCounted = false
            if made >= 0 {
                Glibc.close(made)
                isCounted = semaphore.wait(timeout: .now() + .seconds(1)) == .success
                unlink(path)
            }
            return count.withLock { count in
                count.waiting[number] = nil
                let current = "\(instance):\(count.number)"
                guard isCounted, !count.isBlind, let token, token.hasPrefix(instance + ":"),
                      let since = UInt64(token.dropFirst(instance.count + 1)), since >= count.everythingSince, since <= count.number
                else { return IndexMonitorAnswer(token: current, changed: nil) }
                var changed = count.unwatched.map { $0 + "/" }
                for (path, last) in count.lastChange where last > since {
                    changed.append(path)
                    if changed.count > IndexMonitorProtocol.maximumPaths { return IndexMonitorAnswer(token: current, changed: nil) }
                }
                return IndexMonitorAnswer(token: current, changed: Set(changed))
            }
        }
    }
}
#endif
