#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import KanbanTestSupport
import Synchronization
import Testing

@testable import KanbanServer

/// A running `kanban mcp` talked to over pipes, as an MCP client talks to it: lines written to its standard input,
/// its standard output read and parsed line by line as it comes.
final class MCPProcess: CustomStringConvertible, @unchecked Sendable {
    private let child: KanbanProcess.Piped
    private let output = CollectedOutput()
    private let exitStatus = Locked<Int32?>(nil)
    private let inputClosed = Locked(false)
    private var nextID = 1
    private let readsOutput: Bool

    /// Starts `kanban` with `arguments` (default `mcp`) in the board's directory.
    convenience init(_ arguments: [String] = ["mcp"], board: TemporaryBoard, environment: [String: String] = [:]) throws {
        var variables = ["HOME": board.root]
        variables.merge(environment) { _, new in new }
        try self.init(arguments, directory: board.path, environment: variables)
    }

    /// - Parameter readsOutput: Whether standard output is read as it comes; a client that stopped reading leaves it
    ///   unread (and the pipe fills up).
    init(_ arguments: [String] = ["mcp"], directory: String, environment: [String: String] = [:], readsOutput: Bool = true) throws {
        child = try KanbanProcess.start(arguments, in: directory, environment: environment)
        self.readsOutput = readsOutput
        let output = self.output
        for (descriptor, isError) in [(child.output, false), (child.error, true)] where readsOutput || isError {
            output.readers.enter()
            Thread {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    output.append(Data(buffer[0..<count]), isError: isError)
                }
                close(descriptor)
                output.readers.leave()
            }.start()
        }
        let pid = child.pid
        let exitStatus = self.exitStatus
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            exitStatus.withLock { $0 = code }
        }.start()
    }

    deinit {
        if exitStatus.withLock({ $0 }) == nil { kill(child.pid, SIGKILL) }
        closeInput()
        if !readsOutput { close(child.output) }
    }

    /// What `/proc/PID/fd/1` of the server reads as (`pipe:[INODE]`): its standard output, for telling whether a child
    /// of the server inherited it.
    var standardOutputIdentity: String {
        var status = stat()
        guard fstat(child.output, &status) == 0 else { return "?" }
        return "pipe:[\(status.st_ino)]"
    }

    /// How many bytes of standard output wait in the pipe unread (for a client that stopped reading); `Int.max` where
    /// the system does not say.
    var unreadOutputBytes: Int {
        #if os(Linux)
            var count: Int32 = 0
            return ioctl(child.output, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
        #else
            return .max
        #endif
    }

    var stdout: String { output.stdout }
    var stderr: String { output.stderr }
    var description: String { "--- stdout ---\n\(stdout.prefix(20_000))\n--- stderr ---\n\(stderr.prefix(20_000))" }

    /// Complete lines of standard output so far.
    var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }

    /// Every message written so far, parsed (lines that are not JSON objects are left out: see ``strayLines``).
    var messages: [[String: Any]] {
        lines.compactMap { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] }
    }

    /// Lines of standard output that are not JSON objects: there must be none.
    var strayLines: [String] {
        lines.filter { line in ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]) == nil }
    }

    // MARK: Writing

    /// Writes `bytes` to standard input from a thread of its own with SIGPIPE blocked (the server may have exited;
    /// the signal dies with the thread), and waits until they are written.
    func write(_ bytes: [UInt8]) {
        let descriptor = child.input
        guard !inputClosed.withLock({ $0 }) else { return }
        let done = DispatchSemaphore(value: 0)
        Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                written += count
            }
            done.signal()
        }.start()
        done.wait()
    }

    /// Writes one line (a newline is added).
    func send(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// Writes a message encoded as JSON on one line.
    func send(_ message: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])) ?? Data()
        send(String(decoding: data, as: UTF8.self))
    }

    /// Sends a request with a fresh numeric id and returns the response to it.
    func request(_ method: String, _ params: [String: Any]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { message["params"] = params }
        send(message)
        return try #require(waitForMessage { ($0["id"] as? Int) == id && $0["method"] == nil }, "no answer to \(method): \(self)",
                            sourceLocation: sourceLocation)
    }

    /// `request` for a result: the `result` member (an error fails the test).
    func result(_ method: String, _ params: [String: Any]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let answer = try request(method, params, sourceLocation: sourceLocation)
        return try #require(answer["result"] as? [String: Any], "\(method) failed: \(answer)", sourceLocation: sourceLocation)
    }

    /// Calls a tool and returns its result (with `isError`, `structuredContent` and `content`).
    func callTool(_ name: String, _ arguments: [String: Any] = [:], meta: [String: Any]? = nil,
                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        var params: [String: Any] = ["name": name, "arguments": arguments]
        if let meta { params["_meta"] = meta }
        return try result("tools/call", params, sourceLocation: sourceLocation)
    }

    /// `initialize` at `version` and `notifications/initialized`; returns the initialize result.
    @discardableResult
    func initialize(_ version: String = "2025-11-25", capabilities: [String: Any] = [:]) throws -> [String: Any] {
        let result = try result("initialize", [
            "protocolVersion": version, "capabilities": capabilities, "clientInfo": ["name": "kanban-tests", "version": "1"],
        ])
        send(["jsonrpc": "2.0", "method": "notifications/initialized"])
        return result
    }

    /// Closes standard input: the client went away.
    func closeInput() {
        let wasOpen = inputClosed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if wasOpen { close(child.input) }
    }

    // MARK: Waiting

    /// The first message (from the start) that `matches`, waiting up to 30 s for it.
    func waitForMessage(after skipped: Int = 0, _ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        _ = waitUntil {
            found = messages.dropFirst(skipped).first(where: matches)
            return found != nil
        }
        return found
    }

    /// The exit status, waiting up to 30 s; nil when it is still running.
    func waitForExit() -> Int32? {
        _ = waitUntil { exitStatus.withLock { $0 } != nil }
        output.readers.wait()
        return exitStatus.withLock { $0 }
    }

    func signal(_ signal: Int32) {
        kill(child.pid, signal)
    }
}


/// A value behind a lock, shared with threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

private func writeBytes(_ descriptor: Int32, _ address: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, address, count)
}
