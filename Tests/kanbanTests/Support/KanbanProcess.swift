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
/// Standard input is `/dev/null` unless `stdin` is given; standard output and error are pipes.
enum KanbanProcess {
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
    /// - Parameters:
    ///   - arguments: The command line without the program name.
    ///   - directory: The working directory (also `HOME`); the test process's temporary directory when nil.
    ///   - stdin: Text fed to standard input, which is closed afterwards; `/dev/null` when nil.
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

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binaryPath())
        process.arguments = arguments
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)

        let errorPipe = Pipe()
        process.standardError = errorPipe
        var outputPipe: Pipe?
        var terminal: PseudoTerminal?
        if stdoutIsTerminal {
            let opened = try PseudoTerminal()
            process.standardOutput = FileHandle(fileDescriptor: opened.secondary, closeOnDealloc: false)
            terminal = opened
        } else {
            let pipe = Pipe()
            process.standardOutput = pipe
            outputPipe = pipe
        }
        var inputPipe: Pipe?
        if stdin != nil {
            let pipe = Pipe()
            process.standardInput = pipe
            inputPipe = pipe
        } else {
            guard let null = FileHandle(forReadingAtPath: "/dev/null") else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            process.standardInput = null
        }

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            terminal?.close()
            throw error
        }
        // Only the child may hold the terminal's secondary side now, so reading the primary ends when it exits.
        terminal?.closeSecondary()

        // Read both streams while the child runs, so that a full pipe never blocks it.
        let collected = StreamCollector()
        let group = DispatchGroup()
        let errorHandle = errorPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            collected.set(1, [UInt8](errorHandle.readDataToEndOfFile()))
        }
        if let outputPipe {
            let handle = outputPipe.fileHandleForReading
            DispatchQueue.global().async(group: group) {
                collected.set(0, [UInt8](handle.readDataToEndOfFile()))
            }
        }
        if let terminal {
            let primary = terminal.primary
            DispatchQueue.global().async(group: group) {
                collected.set(0, PseudoTerminal.readAll(primary))
            }
        }
        if let inputPipe, let stdin {
            let handle = inputPipe.fileHandleForWriting
            let data = Data(stdin.utf8)
            DispatchQueue.global().async(group: group) {
                // The child may exit without reading everything; a broken pipe is not the test's concern.
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        }

        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            terminal?.close()
            throw TimedOut(arguments: arguments, seconds: timeout)
        }
        group.wait()
        terminal?.close()
        return Output(status: process.terminationStatus, stdoutBytes: collected.get(0), stderrBytes: collected.get(1))
    }
}

/// A pseudo-terminal pair: the child writes to the secondary side, the test reads the primary side.
private final class PseudoTerminal: @unchecked Sendable {
    let primary: Int32
    private(set) var secondary: Int32

    init() throws {
        let functions = try PseudoTerminalFunctions.shared()
        let primary = functions.openPrimary(O_RDWR | O_NOCTTY)
        guard primary >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard functions.grant(primary) == 0, functions.unlock(primary) == 0, let name = functions.name(primary) else {
            let error = errno
            _ = closeDescriptor(primary)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        let secondary = open(name, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else {
            let error = errno
            _ = closeDescriptor(primary)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        var size = winsize()
        size.ws_col = 100
        size.ws_row = 40
        _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
        self.primary = primary
        self.secondary = secondary
    }

    func closeSecondary() {
        if secondary >= 0 {
            _ = closeDescriptor(secondary)
            secondary = -1
        }
    }

    func close() {
        closeSecondary()
        _ = closeDescriptor(primary)
    }

    /// Reads until every holder of the secondary side has closed it (Linux then reports `EIO`).
    static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
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
}

/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname`, looked up at run time: Swift's Glibc module does not
/// export them (they sit behind `_XOPEN_SOURCE` in the C headers).
private struct PseudoTerminalFunctions: @unchecked Sendable {
    let openPrimary: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    struct Unavailable: Error, CustomStringConvertible {
        var symbol: String
        var description: String { "cannot find \(symbol) in the C library; pseudo-terminals are unavailable" }
    }

    private static let loaded: Result<PseudoTerminalFunctions, Unavailable> = load()

    static func shared() throws -> PseudoTerminalFunctions {
        try loaded.get()
    }

    private static func load() -> Result<PseudoTerminalFunctions, Unavailable> {
        let handle = dlopen(nil, RTLD_NOW)
        func symbol<T>(_ name: String, as type: T.Type) -> Result<T, Unavailable> {
            guard let address = dlsym(handle, name) else { return .failure(Unavailable(symbol: name)) }
            return .success(unsafeBitCast(address, to: type))
        }
        do throws(Unavailable) {
            return .success(PseudoTerminalFunctions(
                openPrimary: try symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self).get(),
                grant: try symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self).get(),
                unlock: try symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self).get(),
                name: try symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self).get()))
        } catch {
            return .failure(error)
        }
    }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
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
