#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Testing

/// Running the built `kanban` binary from tests, the way a person runs it from a shell.
///
/// ```swift
/// let result = try runKanban(["list", "--json"], in: board.path)
/// #expect(result.status == 0)
/// #expect(result.stderr.isEmpty)
/// ```
///
/// Every run gets a controlled environment, never the test runner's own (so a `KANBAN_BOARD` or `NO_COLOR`
/// in the developer's shell changes nothing):
///
/// | variable | value |
/// | --- | --- |
/// | `PATH` | the runner's `PATH` (editor scripts need `sh`, `cat`, ...), else `/usr/bin:/bin` |
/// | `HOME` | the working directory (a test's temporary directory), so nothing touches the real home |
/// | `COLUMNS` | `100` |
/// | `LANG` | `C.UTF-8` |
/// | `TERM` | `xterm-256color` |
/// | `EDITOR` | `true`: a no-op editor, so nothing ever waits for a person |
/// | `VISUAL`, `NO_COLOR`, `KANBAN_BOARD` | unset |
///
/// `environment` entries are laid over that; a value of ``unsetVariable`` removes the variable instead.
/// Standard input is `/dev/null`, or a file holding `stdin` when given (never a pipe: a child that exits without
/// reading it must not kill the test process with SIGPIPE); standard output and error are pipes.
enum KanbanProcess {
    /// Serialises descriptor creation and spawning within this process: a descriptor is made close-on-exec right
    /// after it is created, and no other spawn here may happen in between and leak it into its child.
    /// ``TerminalSession`` takes it too.
    static let spawnLock = NSLock()

    /// Pass as an `environment` value to remove the variable from the child's environment.
    static let unsetVariable = "\u{0}unset"

    /// How long one run may take before it is killed and the test fails (generous: CI machines are slow).
    static let defaultTimeout: TimeInterval = 120

    /// The environment every run starts from; see the table above.
    static func baseEnvironment(home: String) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment["PATH"].flatMap { $0.isEmpty ? nil : $0 }
        return [
            "PATH": inherited ?? "/usr/bin:/bin",
            "HOME": home,
            "COLUMNS": "100",
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
            "EDITOR": "true",
        ]
    }

    /// The `kanban` executable that this test run built, found once.
    ///
    /// It sits in the same build directory as the running test executable (`<scratch>/debug/` with a custom
    /// `--scratch-path`, `.build/debug/` otherwise). `KANBAN_TEST_BINARY` in the test runner's environment
    /// overrides the search.
    static func binaryPath() throws -> String {
        switch located {
        case .success(let path): return path
        case .failure(let failure): throw failure
        }
    }

    private static let located: Result<String, BinaryNotFound> = locateBinary()

    struct BinaryNotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            """
            the 'kanban' binary was not found next to the test executable; build it first \
            (`swift build --product kanban` with the same --scratch-path as `swift test`), or point \
            KANBAN_TEST_BINARY at it. Looked in:
            \(searched.map { "  " + $0 }.joined(separator: "\n"))
            """
        }
    }

    private static func locateBinary() -> Result<String, BinaryNotFound> {
        if let override = ProcessInfo.processInfo.environment["KANBAN_TEST_BINARY"], !override.isEmpty {
            return isExecutableFile(override) ? .success(override) : .failure(BinaryNotFound(searched: [override]))
        }
        var starts: [String] = []
        #if os(Linux)
            if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                starts.append((exe as NSString).deletingLastPathComponent)
            }
        #endif
        if let executable = Bundle.main.executableURL {
            starts.append(executable.resolvingSymlinksInPath().deletingLastPathComponent().path)
        }
        starts.append(Bundle.main.bundleURL.resolvingSymlinksInPath().path)
        if let first = CommandLine.arguments.first, !first.isEmpty {
            let absolute = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
            starts.append((absolute as NSString).deletingLastPathComponent)
        }
        var searched: [String] = []
        for start in starts {
            // macOS: <build>/debug/kanbanPackageTests.xctest/Contents/MacOS/kanbanPackageTests;
            // Linux: <build>/debug/kanbanPackageTests.xctest. Walk up a few levels to the build directory.
            var directory = start
            for _ in 0..<4 {
                let candidate = directory + "/kanban"
                if !searched.contains(candidate) { searched.append(candidate) }
                if isExecutableFile(candidate) { return .success(candidate) }
                let parent = (directory as NSString).deletingLastPathComponent
                if parent == directory { break }
                directory = parent
            }
        }
        return .failure(BinaryNotFound(searched: searched))
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }

    /// The outcome of one run, with the raw bytes of both streams.
    struct Output: Sendable, CustomStringConvertible {
        var status: Int32
        var stdoutBytes: [UInt8]
        var stderrBytes: [UInt8]
        var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
        var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }

        /// Everything, for `#expect(..., "\(result)")` messages.
        var description: String {
            "exit status \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        var arguments: [String]
        var seconds: TimeInterval
        var description: String { "kanban \(arguments.joined(separator: " ")) did not finish within \(Int(seconds)) s; killed" }
    }

    /// Runs `kanban` with `arguments` and waits for it.
    ///
    /// The child is started with `posix_spawn`, not Foundation's `Process`, whose `run()` crashes now and then on
    /// Linux when many tests start processes at once (swift-corelibs-foundation PR #5472, Swift 6.3.1). The child
    /// gets default signal dispositions and none of the test process's other descriptors.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program name.
    ///   - directory: The working directory (also `HOME`); the test process's temporary directory when nil.
    ///   - stdin: Text the child reads on standard input (from a temporary file); `/dev/null` when nil.
    ///   - environment: Variables laid over ``baseEnvironment(home:)``; ``unsetVariable`` removes one.
    ///   - stdoutIsTerminal: Give the child a pseudo-terminal (100 × 40) as standard output instead of a pipe,
    ///     to see what a person at a terminal sees. The terminal turns each `\n` into `\r\n`.
    ///   - timeout: Seconds before the child is killed and ``TimedOut`` thrown.
    static func run(
        _ arguments: [String], in directory: String? = nil, stdin: String? = nil,
        environment: [String: String] = [:], stdoutIsTerminal: Bool = false, timeout: TimeInterval = defaultTimeout
    ) throws -> Output {
        let workingDirectory = directory ?? FileManager.default.temporaryDirectory.path
        var variables = baseEnvironment(home: workingDirectory)
        for (name, value) in environment {
            variables[name] = value == unsetVariable ? nil : value
        }

        // Standard input comes from a file, not a pipe: a child that exits without reading it (a usage error)
        // would otherwise kill the whole test process with SIGPIPE.
        var inputFile: String?
        defer { if let inputFile { try? FileManager.default.removeItem(atPath: inputFile) } }
        if let stdin {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-cli-stdin-\(UUID().uuidString)").path
            inputFile = file
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: file))
        }

        let child = try Child.spawn(
            path: try binaryPath(), arguments: arguments, environment: variables, directory: workingDirectory,
            inputPath: inputFile ?? "/dev/null", stdoutIsTerminal: stdoutIsTerminal)

        // Read both streams while the child runs, so that a full pipe never blocks it.
        let collected = StreamCollector()
        let group = DispatchGroup()
        for (index, descriptor) in [child.output, child.error].enumerated() {
            DispatchQueue.global().async(group: group) {
                collected.set(index, readToEnd(descriptor))
            }
        }
        let exit = ExitBox()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            exit.status = waitForExit(child.pid)
            finished.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            _ = kill(child.pid, SIGKILL)
            _ = finished.wait(timeout: .now() + 10)
            _ = group.wait(timeout: .now() + 10)
            child.closeAll()
            throw TimedOut(arguments: arguments, seconds: timeout)
        }
        group.wait()
        child.closeAll()
        return Output(status: exit.status, stdoutBytes: collected.get(0), stderrBytes: collected.get(1))
    }
}

extension KanbanProcess {
    /// A running `kanban` whose standard input, output and error are pipes held by the caller, for a long-running
    /// child that is talked to (`kanban mcp`). The caller reads both outputs, writes to `input` (with SIGPIPE blocked
    /// in the writing thread: the child may be gone), closes the three descriptors and reaps `pid`.
    struct Piped: Sendable {
        var pid: pid_t
        var input: Int32
        var output: Int32
        var error: Int32
    }

    /// Starts `kanban` with `arguments` in `directory` (also `HOME`), with ``baseEnvironment(home:)`` and
    /// `environment` laid over it, and pipes on all three standard streams.
    static func start(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Piped {
        var variables = baseEnvironment(home: directory)
        for (name, value) in environment {
            variables[name] = value == unsetVariable ? nil : value
        }
        let child = try Child.spawn(path: try binaryPath(), arguments: arguments, environment: variables, directory: directory,
                                    inputPath: nil, stdoutIsTerminal: false)
        return Piped(pid: child.pid, input: child.input ?? -1, output: child.output, error: child.error)
    }
}

/// A started child: its pid and the read ends of its standard output and error.
private struct Child: Sendable {
    var pid: pid_t
    var output: Int32
    var error: Int32
    /// The write end of standard input when it is a pipe (``KanbanProcess/start(_:in:environment:)``).
    var input: Int32?

    private static var spawnLock: NSLock { KanbanProcess.spawnLock }

    static func spawn(
        path: String, arguments: [String], environment: [String: String], directory: String, inputPath: String?,
        stdoutIsTerminal: Bool
    ) throws -> Child {
        spawnLock.lock()
        defer { spawnLock.unlock() }

        var opened: [Int32] = []
        func track(_ descriptor: Int32) throws -> Int32 {
            guard descriptor >= 0 else { throw currentError() }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            opened.append(descriptor)
            return descriptor
        }
        do {
            var inputWrite: Int32?
            let input: Int32
            if let inputPath {
                input = try track(open(inputPath, O_RDONLY | O_CLOEXEC))
            } else {
                let (inputRead, write) = try makePipe(track)
                (input, inputWrite) = (inputRead, write)
            }
            let (errorRead, errorWrite) = try makePipe(track)
            let outputRead: Int32
            let outputWrite: Int32
            if stdoutIsTerminal {
                (outputRead, outputWrite) = try PseudoTerminal.open(track)
            } else {
                (outputRead, outputWrite) = try makePipe(track)
            }

            let pid = try launch(
                path: path, arguments: arguments, environment: environment, directory: directory,
                descriptors: [(input, 0), (outputWrite, 1), (errorWrite, 2)])
            for descriptor in [input, outputWrite, errorWrite] { _ = closeDescriptor(descriptor) }
            return Child(pid: pid, output: outputRead, error: errorRead, input: inputWrite)
        } catch {
            for descriptor in opened { _ = closeDescriptor(descriptor) }
            throw error
        }
    }

    func closeAll() {
        _ = closeDescriptor(output)
        _ = closeDescriptor(error)
    }

    private static func makePipe(_ track: (Int32) throws -> Int32) throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw currentError() }
        return (try track(descriptors[0]), try track(descriptors[1]))
    }

    private static func launch(
        path: String, arguments: [String], environment: [String: String], directory: String,
        descriptors: [(Int32, Int32)]
    ) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw currentError() }
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawnattr_init(&attributes) == 0 else { throw currentError() }
        defer { posix_spawnattr_destroy(&attributes) }

        for (descriptor, target) in descriptors {
            let result = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        }
        // Default dispositions and an empty mask, whatever the test runner set for itself.
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv = [path] + arguments
        if let addChangeDirectory = SpawnFunctions.addChangeDirectory {
            let result = directory.withCString { addChangeDirectory(&actions, $0) }
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        } else {
            // No posix_spawn_file_actions_addchdir_np: let a shell change directory and then become kanban.
            argv = ["/bin/sh", "-c", #"cd -- "$1" && shift && exec "$@""#, "sh", directory] + argv
        }
        let executable = argv[0]
        let environmentStrings = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environmentStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }
}

/// Functions of the C library that Swift's Glibc module does not export (GNU or X/Open extensions), looked up at run
/// time; nil when the library lacks them.
private enum SpawnFunctions {
    #if canImport(Darwin)
        typealias Actions = posix_spawn_file_actions_t?
    #else
        typealias Actions = posix_spawn_file_actions_t
    #endif
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32

    static let addChangeDirectory: AddChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
    static let openPrimary: (@convention(c) (Int32) -> Int32)? = symbol("posix_openpt")
    static let grant: (@convention(c) (Int32) -> Int32)? = symbol("grantpt")
    static let unlock: (@convention(c) (Int32) -> Int32)? = symbol("unlockpt")
    static let name: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?)? = symbol("ptsname")

    private static func symbol<T>(_ name: String) -> T? {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}

/// A pseudo-terminal pair for a child's standard output: the child writes to the secondary side, the test reads
/// the primary side until the child has exited.
private enum PseudoTerminal {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "pseudo-terminals are unavailable (no posix_openpt in the C library)" }
    }

    /// The primary (read) and secondary (write) descriptors, both close-on-exec, sized 100 × 40.
    static func open(_ track: (Int32) throws -> Int32) throws -> (read: Int32, write: Int32) {
        guard let openPrimary = SpawnFunctions.openPrimary, let grant = SpawnFunctions.grant,
              let unlock = SpawnFunctions.unlock, let name = SpawnFunctions.name
        else { throw Unavailable() }
        let primary = try track(openPrimary(O_RDWR | O_NOCTTY | O_CLOEXEC))
        guard grant(primary) == 0, unlock(primary) == 0, let path = name(primary) else { throw currentError() }
        #if canImport(Glibc)
            let secondary = try track(Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC))
        #else
            let secondary = try track(Darwin.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC))
        #endif
        var size = winsize()
        size.ws_col = 100
        size.ws_row = 40
        _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
        return (primary, secondary)
    }
}

/// Reads `descriptor` until end of file, or until a terminal's other side is gone (Linux reports `EIO`).
private func readToEnd(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes += chunk[0..<count]
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            return bytes
        }
    }
}

/// Waits for `pid` and returns its exit status, or 128 + the signal number when a signal ended it (as shells do).
private func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { return -1 }
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
}

private func currentError() -> POSIXError {
    POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}

/// The exit status, set by the waiting thread before it signals.
private final class ExitBox: @unchecked Sendable {
    var status: Int32 = -1
}

/// The bytes read from the child's two output streams, filled from two threads.
private final class StreamCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var streams: [[UInt8]] = [[], []]

    func set(_ index: Int, _ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        streams[index] = bytes
    }

    func get(_ index: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return streams[index]
    }
}

/// Runs the built `kanban` binary; see ``KanbanProcess`` for the environment it gets.
///
/// - Parameters:
///   - args: The command line without the program name.
///   - directory: The working directory (and `HOME`); the system temporary directory when nil.
///   - stdin: Text for standard input; `/dev/null` when nil.
///   - environment: Variables laid over the controlled base environment; `KanbanProcess.unsetVariable` removes one.
/// - Returns: The exit status and what the process wrote on each stream (decoded as UTF-8).
/// - Throws: When the binary cannot be found or started, or it runs longer than two minutes.
func runKanban(
    _ args: [String], in directory: String? = nil, stdin: String? = nil, environment: [String: String] = [:]
) throws -> (status: Int32, stdout: String, stderr: String) {
    let output = try KanbanProcess.run(args, in: directory, stdin: stdin, environment: environment)
    return (output.status, output.stdout, output.stderr)
}

/// Whether `text` holds an ANSI escape (ESC, 0x1B).
func containsEscape(_ text: String) -> Bool {
    text.utf8.contains(0x1B)
}
