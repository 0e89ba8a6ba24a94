#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How one child process went: its exit, wall time, peak memory and what it printed.
struct ChildResult {
    /// The exit code, or nil when a signal ended the child.
    var exitCode: Int32?
    /// The signal that ended the child, if one did.
    var signal: Int32?
    /// From just before `posix_spawn` to `wait4` returning.
    var seconds: Double
    /// The child's `ru_maxrss`: its peak resident set, in KiB on Linux.
    var peakMemoryKiB: Int
    /// Processor time the child used, user and system, on every thread.
    var processorSeconds: Double
    /// Standard output, when it was kept.
    var output: String
    /// Lines written to standard output.
    var outputLineCount: Int

    var succeeded: Bool { exitCode == 0 }

    /// "exited with 2" or "was killed by signal 11".
    var statusDescription: String {
        if let signal { return "was killed by signal \(signal)" }
        return "exited with \(exitCode ?? -1)"
    }
}

/// Runs a program (found on `PATH`) with `posix_spawnp`, reads its standard output through a pipe and reaps it
/// with `wait4`, whose resource usage gives the child's peak memory. Standard error is inherited.
///
/// Output is drained through a pipe rather than sent to `/dev/null` on purpose: GNU grep notices `/dev/null`
/// and stops at the first match, which would make it look faster than it is.
enum ChildProcess {
    static func run(_ arguments: [String], keepsOutput: Bool) throws(BenchmarkError) -> ChildResult {
        precondition(!arguments.isEmpty, "a child needs a program")
        var pipeDescriptors: [Int32] = [-1, -1]
        guard pipe(&pipeDescriptors) == 0 else { throw POSIX.error("create a pipe for", arguments[0], errno: errno) }
        let readEnd = pipeDescriptors[0]
        let writeEnd = pipeDescriptors[1]
        // Glibc's pipe2 is not imported into Swift; the benchmark spawns from one thread, so marking the ends
        // close-on-exec right after creating them leaves no window for another child to inherit them.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = Platform.spawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, Platform.environment)
        close(writeEnd)
        guard spawned == 0 else { throw POSIX.error("run", arguments[0], errno: spawned) }

        var output: [UInt8] = []
        var lineCount = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                POSIX.retrying { read(readEnd, buffer.baseAddress, buffer.count) }
            }
            if count <= 0 { break }
            // Counted with memchr: a byte-by-byte loop over `list --json`'s 38 MB took a core's worth of the time
            // being measured from the two the child runs on.
            chunk.withUnsafeBytes { bytes in
                var next = bytes.baseAddress!
                let end = next + count
                while next < end, let found = memchr(next, 0x0A, end - next) {
                    lineCount += 1
                    next = UnsafeRawPointer(found) + 1
                }
            }
            if keepsOutput { output.append(contentsOf: chunk[0..<count]) }
        }

        var status: Int32 = 0
        var usage = rusage()
        let reaped = POSIX.retrying { wait4(pid, &status, 0, &usage) }
        let seconds = start.duration(to: .now).seconds
        guard reaped == pid else { throw POSIX.error("wait for", arguments[0], errno: errno) }

        // The W* macros are not imported into Swift; this is their Linux and BSD definition.
        let terminatingSignal = status & 0x7F
        return ChildResult(
            exitCode: terminatingSignal == 0 ? (status >> 8) & 0xFF : nil,
            signal: terminatingSignal == 0 ? nil : terminatingSignal,
            seconds: seconds,
            peakMemoryKiB: Int(usage.ru_maxrss),
            processorSeconds: usage.processorSeconds,
            output: String(decoding: output, as: UTF8.self),
            outputLineCount: lineCount)
    }
}

extension rusage {
    /// User plus system time.
    var processorSeconds: Double {
        Double(ru_utime.tv_sec) + Double(ru_utime.tv_usec) * 1e-6 + Double(ru_stime.tv_sec) + Double(ru_stime.tv_usec) * 1e-6
    }

    /// This process's usage so far, all threads included.
    static func ofThisProcess() -> rusage {
        Platform.usageOfThisProcess()
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// Wall time of `body`, in seconds, on the monotonic clock.
func wallTime<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, seconds: Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, start.duration(to: .now).seconds)
}

/// Wall time and processor time (user and system, every thread of this process) of `body`, in seconds.
/// Processor time barely changes when other work competes for the cores; wall time does.
func wallAndProcessorTime<T, E: Error>(_ body: () throws(E) -> T) throws(E)
    -> (result: T, seconds: Double, processorSeconds: Double)
{
    let before = rusage.ofThisProcess().processorSeconds
    let (result, seconds) = try wallTime(body)
    return (result, seconds, rusage.ofThisProcess().processorSeconds - before)
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "the median of nothing")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
