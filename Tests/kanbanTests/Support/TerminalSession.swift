#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing

/// The built `kanban` binary running in a pseudo-terminal of a set size, as a person runs `kanban tui`: the test
/// types keys, and reads the screen through a ``VirtualScreen`` fed with everything the program writes.
///
/// ```swift
/// let session = try TerminalSession.start(["tui"], in: board.path, columns: 100, rows: 30)
/// defer { session.stop() }
/// try session.waitForScreen("the board") { $0.contains("To Do (5)") }
/// session.type("L")
/// ```
///
/// The child is started with `forkpty(3)`: it gets the terminal as its controlling terminal (so a window size change
/// sends it SIGWINCH, as in a real terminal) and as standard input, output and error. Everything the child needs
/// is prepared before the fork; the child only resets its signal mask, changes directory and `execve`s. Its
/// environment is ``KanbanProcess/baseEnvironment(home:)`` with `environment` laid over it.
///
/// Every wait has a generous upper bound (20 s by default) and ends as soon as its condition holds.
final class TerminalSession: @unchecked Sendable {
    /// The default bound on a wait: far more than anything takes, even on a loaded machine.
    static let defaultTimeout: TimeInterval = 20

    let pid: pid_t
    private let primary: Int32
    private let lock = NSLock()
    // Guarded by `lock`: filled by the reader thread.
    private var written: [UInt8] = []
    private var screen: VirtualScreen
    private var isReaderDone = false
    // Only the test's thread touches these.
    private var exitStatus: Int32?

    struct Timeout: Error, CustomStringConvertible {
        var waitingFor: String
        var screen: String
        var description: String { "timed out waiting for \(waitingFor); the screen shows:\n\(screen)" }
    }

    private init(pid: pid_t, primary: Int32, columns: Int, rows: Int) {
        self.pid = pid
        self.primary = primary
        screen = VirtualScreen(columns: columns, rows: rows)
    }

    /// Starts `kanban arguments` in a new pseudo-terminal of `columns` × `rows`, with `directory` as its working
    /// directory and `HOME`.
    static func start(_ arguments: [String], in directory: String, columns: Int, rows: Int,
                      environment: [String: String] = [:]) throws -> TerminalSession {
        let path = try KanbanProcess.binaryPath()
        var variables = KanbanProcess.baseEnvironment(home: directory)
        for (name, value) in environment {
            variables[name] = value == KanbanProcess.unsetVariable ? nil : value
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        guard let workingDirectory = strdup(directory), let program = argv[0] else { throw POSIXError(.ENOMEM) }
        defer {
            for pointer in argv + envp { free(pointer) }
            free(workingDirectory)
        }
        var size = winsize()
        size.ws_col = UInt16(columns)
        size.ws_row = UInt16(rows)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var primary: Int32 = -1

        // Under the spawn lock: the terminal's descriptors are not yet close-on-exec, and no other test's child may
        // inherit them (a copy of the other side held open elsewhere would keep the end of output from showing).
        KanbanProcess.spawnLock.lock()
        defer { KanbanProcess.spawnLock.unlock() }
        let pid = argv.withUnsafeBufferPointer { arguments in
            envp.withUnsafeBufferPointer { environment in
                guard let argumentList = arguments.baseAddress, let environmentList = environment.baseAddress else { return pid_t(-1) }
                let pid = forkpty(&primary, nil, nil, &size)
                if pid == 0 {
                    // The child: nothing here may allocate or take a lock another thread could hold.
                    sigprocmask(SIG_SETMASK, &noSignals, nil)
                    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGTSTP, SIGCONT, SIGQUIT] {
                        _ = Glibc.signal(signal, SIG_DFL)
                    }
                    _ = chdir(workingDirectory)
                    execve(program, argumentList, environmentList)
                    _exit(127)
                }
                return pid
            }
        }
        guard pid > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        _ = fcntl(primary, F_SETFD, FD_CLOEXEC)
        let session = TerminalSession(pid: pid, primary: primary, columns: columns, rows: rows)
        Thread.detachNewThread { session.readUntilClosed() }
        return session
    }

    private func readUntilClosed() {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            lock.lock()
            if count > 0 {
                written += chunk[0..<count]
                screen.feed(chunk[0..<count])
                lock.unlock()
            } else {
                // End of file, or EIO: every descriptor of the terminal's other side is closed.
                isReaderDone = true
                lock.unlock()
                return
            }
        }
    }

    /// Everything the program wrote so far.
    var output: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    /// The screen as it is now.
    var currentScreen: VirtualScreen {
        lock.lock()
        defer { lock.unlock() }
        return screen
    }

    /// Types `text` (its UTF-8 bytes; escape sequences too).
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Gives the terminal a new size (as a window resize does: the kernel sends SIGWINCH to the program), and sends
    /// SIGWINCH as well, as the brief of a resize test asks.
    func resize(columns: Int, rows: Int) {
        lock.lock()
        screen.resize(columns: columns, rows: rows)
        lock.unlock()
        var size = winsize()
        size.ws_col = UInt16(columns)
        size.ws_row = UInt16(rows)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        kill(pid, SIGWINCH)
    }

    /// Waits until `condition` holds for the screen; returns that screen.
    @discardableResult
    func waitForScreen(_ description: String, timeout: TimeInterval = defaultTimeout,
                       _ condition: (VirtualScreen) -> Bool) throws -> VirtualScreen {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let screen = currentScreen
            if condition(screen) { return screen }
            guard Date() < deadline else {
                throw Timeout(waitingFor: description, screen: screen.text + "\n(highlighted: \(screen.highlighted))")
            }
            usleep(10_000)
        }
    }

    /// Waits until `condition` holds (a file appears, say).
    func waitUntil(_ description: String, timeout: TimeInterval = defaultTimeout, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw Timeout(waitingFor: description, screen: currentScreen.text) }
            usleep(10_000)
        }
    }

    /// Waits for the program to exit and for its last output; returns its exit status (128 + the signal's number
    /// when a signal ended it).
    func waitForExit(timeout: TimeInterval = defaultTimeout) throws -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
            guard Date() < deadline else { throw Timeout(waitingFor: "kanban to exit", screen: currentScreen.text) }
            usleep(10_000)
        }
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = code
        try waitUntil("the rest of the output") {
            lock.lock()
            defer { lock.unlock() }
            return isReaderDone
        }
        return code
    }

    /// Waits until the program has stopped (suspended itself, as after Ctrl-Z).
    func waitForStop(timeout: TimeInterval = defaultTimeout) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG | WUNTRACED)
            // WIFSTOPPED: the low byte is 0x7F.
            if result == pid && status & 0xFF == 0x7F { return }
            if result == pid { throw Timeout(waitingFor: "a stop, but the program exited", screen: currentScreen.text) }
            guard Date() < deadline else { throw Timeout(waitingFor: "the program to stop", screen: currentScreen.text) }
            usleep(10_000)
        }
    }

    /// The terminal's attributes as the program left them (the terminal outlives the program while the test holds
    /// its primary side).
    func terminalAttributes() -> termios? {
        var attributes = termios()
        return tcgetattr(primary, &attributes) == 0 ? attributes : nil
    }

    /// Kills the program if it still runs, reaps it, and closes the terminal.
    func stop() {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = try? waitForExit()
        }
        _ = close(primary)
    }
}
