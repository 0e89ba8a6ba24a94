#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KanbanCore

/// What a child process did: its exit status and everything it wrote, or that it ran out of time.
package struct SubprocessResult: Sendable {
    /// The exit status; `128 + n` when signal `n` ended the process.
    package var status: Int32
    /// Everything written to standard output.
    package var output: [UInt8]
    /// Everything written to standard error.
    package var errorOutput: [UInt8]
    /// Whether the time limit ran out and the process group was killed.
    package var timedOut: Bool
}

/// Why a child process could not be started.
package struct SubprocessStartError: Error, Sendable {
    /// `errno` from `posix_spawn` or `pipe`: `ENOENT` when the program does not exist.
    package var code: Int32
    package var reason: String { String(cString: strerror(code)) }
}

/// The system calls KanbanCore's sync makes, in one place: running a program with `posix_spawn` in a process
/// group of its own, standard input from `/dev/null`, both output pipes drained with `poll(2)` while it runs (so a
/// chatty child never blocks on a full pipe), and a time limit after which the whole group gets `SIGTERM`, then
/// `SIGKILL`: hooks, ssh and credential helpers started by the child go with it, so no call can hang.
package enum Subprocess {
    /// How long a group gets between `SIGTERM` and `SIGKILL`.
    static let terminationGrace: Duration = .seconds(1)

    /// Runs `executable` (an absolute path) with `arguments` and exactly `environment`, and waits for it.
    /// - Parameter input: What the child reads on standard input (from an unlinked temporary file, so that nothing
    ///   can block on a full pipe); `/dev/null` when nil.
    /// - Throws: ``SubprocessStartError`` when no process could be started.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: Duration, input: [UInt8]? = nil) throws(SubprocessStartError) -> SubprocessResult {
        var inputDescriptor: Int32?
        if let input {
            let descriptor = try inputFile(input, temporaryDirectory: environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
            inputDescriptor = descriptor
        }
        defer { if let inputDescriptor { close(inputDescriptor) } }
        let output = try makePipe()
        let errors: (read: Int32, write: Int32)
        do {
            errors = try makePipe()
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let spawned = spawnInOwnGroup(executable, arguments, environment: environment, input: inputDescriptor, output: output.write,
                                      errors: errors.write)
        close(output.write)
        close(errors.write)
        let pid: pid_t
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let failure):
            close(output.read)
            close(errors.read)
            throw failure
        }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var collected: [[UInt8]] = [[], []]
        var descriptors = [pollfd(fd: output.read, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: errors.read, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var timedOut = false
        while descriptors.contains(where: { $0.fd >= 0 }) {
            let left = milliseconds(until: deadline, clock: clock)
            if left <= 0 {
                timedOut = true
                break
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(left, 1_000)))
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { bytes in
                    FileSystem.retrying { read(descriptors[index].fd, bytes.baseAddress, bytes.count) }
                }
                if count > 0 {
                    collected[index].append(contentsOf: buffer[0..<count])
                } else {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                }
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }

        // Both pipes are closed; the child may still be running (a stray grandchild may have held the pipes).
        var status: Int32 = 0
        var reaped = false
        while !timedOut {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                reaped = true
                break
            }
            if result < 0 && errno != EINTR {
                reaped = true
                break
            }
            if milliseconds(until: deadline, clock: clock) <= 0 {
                timedOut = true
                break
            }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, 10)
        }
        if timedOut && !reaped {
            status = terminateGroup(pid)
        }
        return SubprocessResult(status: exitStatus(status), output: collected[0], errorOutput: collected[1], timedOut: timedOut)
    }

    /// Sends `SIGTERM` to the child's process group, gives it ``terminationGrace``, then `SIGKILL`s whatever is left,
    /// and reaps the child. Returns its wait status.
    static func terminateGroup(_ pid: pid_t) -> Int32 {
        _ = kill(-pid, SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: terminationGrace)
        var status: Int32 = 0
        var reaped = false
        while milliseconds(until: deadline, clock: clock) > 0 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) {
                reaped = true
                break
            }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, 10)
        }
        // Grandchildren that ignored SIGTERM, or outlived the child, are in the same group.
        _ = kill(-pid, SIGKILL)
        if !reaped {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return status
    }

    /// A descriptor open on an unlinked file in `directory` holding `bytes`, positioned at its start.
    static func inputFile(_ bytes: [UInt8], temporaryDirectory directory: String) throws(SubprocessStartError) -> Int32 {
        var template = Array((directory + "/kanban-input-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SubprocessStartError(code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                FileSystem.retrying { write(descriptor, buffer.baseAddress! + written, bytes.count - written) }
            }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                throw SubprocessStartError(code: code)
            }
            written += count
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            let code = errno
            close(descriptor)
            throw SubprocessStartError(code: code)
        }
        return descriptor
    }

    /// Starts `executable` in a process group of its own (so that a timeout can kill everything it started),
    /// with default handling of the usual signals and an empty signal mask, whatever this process ignores or
    /// blocks. The watcher's `--exec` hooks start the same way.
    /// - Parameters:
    ///   - input: The child's standard input; `/dev/null` when nil.
    ///   - output: The descriptor that becomes the child's standard output.
    ///   - errors: The descriptor that becomes its standard error; this process's when nil.
    /// - Returns: The child's pid, or the error of `posix_spawn`.
    package static func spawnInOwnGroup(_ executable: String, _ arguments: [String], environment: [String: String],
                                        input: Int32?, output: Int32, errors: Int32?) -> Result<pid_t, SubprocessStartError> {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        if let errors { posix_spawn_file_actions_adddup2(&actions, errors, 2) }

        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(SubprocessStartError(code: code))
    }

    /// Whether `path` is a file this process may execute (not a directory).
    package static func isExecutable(_ path: String) -> Bool {
        !FileSystem.isDirectory(path) && access(path, X_OK) == 0
    }

    /// Sleeps for `duration` (retrying when a signal cuts it short).
    package static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    private static func makePipe() throws(SubprocessStartError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        #if os(Linux)
        // A socket pair instead of pipe2(2), which Swift's Glibc module does not export: created close-on-exec in
        // one call, so no other thread's child can inherit it.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else { throw SubprocessStartError(code: errno) }
        _ = shutdown(descriptors[0], Int32(SHUT_WR))
        _ = shutdown(descriptors[1], Int32(SHUT_RD))
        #else
        guard pipe(&descriptors) == 0 else { throw SubprocessStartError(code: errno) }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        #endif
        return (descriptors[0], descriptors[1])
    }

    /// The exit code from a `waitpid` status, or `128 + signal` for a process a signal ended.
    static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int64 {
        let left = clock.now.duration(to: deadline)
        let (seconds, attoseconds) = left.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
