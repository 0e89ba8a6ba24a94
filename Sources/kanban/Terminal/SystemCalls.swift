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
    static func runShell(_ script: String, arguments: [String]) -> Result<Int32, SpawnFailure> {
        let words = ["/bin/sh", "-c", script, "kanban"] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
        #else
            var attributes = posix_spawnattr_t()
        #endif
        let initialised = posix_spawnattr_init(&attributes)
        guard initialised == 0 else { return .failure(SpawnFailure(code: initialised)) }
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
        guard spawned == 0 else { return .failure(SpawnFailure(code: spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(SpawnFailure(code: errno)) }
        }
        let signal = status & 0x7F
        return .success(signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
    }
}

/// Why a child process could not be started or waited for: the `errno`.
struct SpawnFailure: Error {
    var code: Int32
}
