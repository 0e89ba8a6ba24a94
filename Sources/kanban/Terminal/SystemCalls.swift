#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls the `kanban` executable makes, each capturing `errno` at once and
/// retrying on `EINTR`.
enum SystemCalls {
    /// Whether `descriptor` refers to a terminal (`isatty(3)`).
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The number of columns of the terminal on `descriptor` (`ioctl(TIOCGWINSZ)`), or
    /// `nil` when it is not a terminal or reports no size.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        let result = ioctl(descriptor, UInt(TIOCGWINSZ), &size)
        guard result == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The size of the terminal on `descriptor` (`ioctl(TIOCGWINSZ)`), or nil when it is not a terminal or reports
    /// no size.
    static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The terminal attributes of `descriptor` (`tcgetattr(3)`), or the `errno`.
    static func terminalAttributes(_ descriptor: Int32) -> Result<termios, SystemCallFailure> {
        var attributes = termios()
        while tcgetattr(descriptor, &attributes) != 0 {
            let error = errno
            guard error == EINTR else { return .failure(SystemCallFailure(code: error)) }
        }
        return .success(attributes)
    }

    /// Sets the terminal attributes of `descriptor` once output written so far has gone out (`tcsetattr(3)` with
    /// `TCSADRAIN`; input typed ahead is kept).
    /// - Returns: nil on success, or the `errno`.
    @discardableResult
    static func setTerminalAttributes(_ descriptor: Int32, _ attributes: termios) -> Int32? {
        var attributes = attributes
        while tcsetattr(descriptor, TCSADRAIN, &attributes) != 0 {
            let error = errno
            guard error == EINTR else { return error }
        }
        return nil
    }

    /// A pipe whose ends are non-blocking and closed on exec, or the `errno`.
    static func makePipe() -> Result<(read: Int32, write: Int32), SystemCallFailure> {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return .failure(SystemCallFailure(code: errno)) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return .success((descriptors[0], descriptors[1]))
    }

    /// Waits until one of `descriptors` can be read (or has hung up), or `milliseconds` pass (-1: no limit), as
    /// `poll(2)` does; an interruption by a signal counts as the time passing.
    /// - Returns: For each descriptor, whether it is ready; or the `errno` of a failed poll.
    static func waitForInput(_ descriptors: [Int32], milliseconds: Int32) -> Result<[Bool], SystemCallFailure> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        if count < 0 {
            let error = errno
            return error == EINTR ? .success(Array(repeating: false, count: descriptors.count)) : .failure(SystemCallFailure(code: error))
        }
        return .success(entries.map { $0.revents != 0 })
    }

    /// Reads what is available from `descriptor`, up to `limit` bytes, retrying on `EINTR`.
    /// - Returns: The bytes (empty at end of file), or the `errno` (`EAGAIN` when nothing is there after all).
    static func readAvailable(_ descriptor: Int32, limit: Int = 4096) -> Result<[UInt8], SystemCallFailure> {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, limit) }
            if count >= 0 { return .success(Array(buffer.prefix(count))) }
            let error = errno
            if error != EINTR { return .failure(SystemCallFailure(code: error)) }
        }
    }

    /// Stops this process (SIGSTOP, which cannot be caught or blocked), as a shell's Ctrl-Z stops a job; returns once
    /// it is continued.
    static func stopThisProcess() {
        kill(getpid(), SIGSTOP)
    }

    /// Writes one byte to a non-blocking pipe to wake its reader; a full pipe already will, so failure is ignored.
    static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        while write(descriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Writes all of `bytes` to `descriptor`, continuing after partial writes and `EINTR`.
    ///
    /// - Returns: `nil` on success, or the `errno` of the failed `write(2)`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var address = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, address, remaining)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                return error
            }
            remaining -= written
            address += written
        }
        return nil
    }

    /// Runs `/bin/sh -c script kanban arguments...` on this process's standard streams and waits for it, as
    /// `git` runs an editor. posix_spawn rather than Foundation's Process, which can crash on Linux. The child starts
    /// with no signal blocked, whatever this process blocks (`kanban tui` takes its signals with `sigwait`), so that
    /// an editor sees Ctrl-C and window size changes.
    /// - Returns: The exit status (128 + the signal number when killed), or the `errno` when it could not start.
    static func runShell(_ script: String, arguments: [String]) -> Result<Int32, SystemCallFailure> {
        let words = ["/bin/sh", "-c", script, "kanban"] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var attributes = Platform.spawnAttributes()
        let initialised = posix_spawnattr_init(&attributes)
        guard initialised == 0 else { return .failure(SystemCallFailure(code: initialised)) }
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, Platform.environment)
        guard spawned == 0 else { return .failure(SystemCallFailure(code: spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(SystemCallFailure(code: errno)) }
        }
        let signal = status & 0x7F
        return .success(signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
    }
}

/// Why a system call failed (a child process that could not be started or waited for, a terminal that cannot be
/// set up): the `errno`.
struct SystemCallFailure: Error {
    var code: Int32
}
