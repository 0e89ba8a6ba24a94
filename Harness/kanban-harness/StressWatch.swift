#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// `kanban watch --json --initial` running beside the stress workers, its output read all the while (so that a
/// full pipe never stalls it) by a thread of its own, the only one that touches the child until ``stop()``.
final class StressWatch: Sendable {
    private let process: ChildProcess
    private let output = Mutex("")
    private let stopping = Mutex(false)
    private let reader = DispatchSemaphore(value: 0)

    var pid: pid_t { process.pid }

    /// Starts the watcher on `board`.
    /// - Parameter pollInterval: With a value, the watcher polls every so many seconds (`--poll SECONDS`) instead
    ///   of using inotify.
    init(kanban: String, board: String, environment: [String: String], pollInterval: Double? = nil) throws {
        let arguments = ["watch", "--json", "--initial"] + (pollInterval.map { ["--poll", String($0)] } ?? [])
        process = try BoardProcesses.start(kanban, arguments, in: board, environment: environment)
        Thread.detachNewThread { [self] in
            while !stopping.withLock({ $0 }) {
                let text = process.outputSoFar(waiting: 100)
                output.withLock { $0 = text }
            }
            reader.signal()
        }
    }

    /// The lines printed so far (the last one may be incomplete).
    var lines: [Substring] {
        output.withLock { $0 }.split(separator: "\n")
    }

    /// Waits until at least `count` lines are out, for at most `timeout` seconds.
    func waitForLines(_ count: Int, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.withLock({ $0.filter { $0 == "\n" }.count }) >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits until the output has not grown for `quiet` seconds, for at most `timeout` seconds: once the board
    /// stops changing, the watcher reports what it has yet to report and then prints nothing more.
    /// - Returns: How long it waited, and whether the output did fall quiet (false: it still grew at the timeout).
    func waitUntilQuiet(for quiet: Double, timeout: Double) -> (seconds: Double, isQuiet: Bool) {
        let start = Date()
        var length = output.withLock { $0.utf8.count }
        var lastGrowth = start
        while true {
            let now = Date()
            if now.timeIntervalSince(lastGrowth) >= quiet { return (now.timeIntervalSince(start), true) }
            if now.timeIntervalSince(start) >= timeout { return (now.timeIntervalSince(start), false) }
            usleep(100_000)
            let current = output.withLock { $0.utf8.count }
            if current != length {
                length = current
                lastGrowth = Date()
            }
        }
    }

    /// Whether the process is still running (not exited and waiting to be reaped).
    var isRunning: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return kill(process.pid, 0) == 0 }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// Stops the reading thread, sends SIGTERM, and waits (at most 30 s) for the watcher to exit.
    func stop() -> ChildProcess.Outcome {
        stopping.withLock { $0 = true }
        reader.wait()
        process.signal(SIGTERM)
        return process.wait(timeout: 30)
    }
}
