#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import KanbanServer

/// The terminal's system calls, and running a shell on the terminal.
extension SystemCalls {
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

    /// Stops this process (SIGSTOP, which cannot be caught or blocked), as a shell's Ctrl-Z stops a job; returns once
    /// it is continued.
    static func stopThisProcess() {
        kill(getpid(), SIGSTOP)
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
