#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell command run for an event (`kanban watch --exec`): `/bin/sh -c` in a process group of its own, the
/// input on standard input, a time limit after which the whole group gets SIGTERM and then SIGKILL, so that
/// nothing it started outlives it.
///
/// Shared with the `kanban` executable, which decides what to run and how to report the outcome.
package enum ShellCommand {
    /// How a run ended.
    package enum Outcome: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It ran out of time and its group was stopped.
        case timedOut
        /// `isCancelled` said to stop, and its group was stopped.
        case cancelled
        /// It could not be started: the reason.
        case failedToStart(String)
    }

    /// Runs `command` and waits for it (on the calling thread).
    /// - Parameters:
    ///   - command: Shell text for `/bin/sh -c`.
    ///   - environment: Exactly the child's environment.
    ///   - input: Bytes for its standard input, which is closed afterwards.
    ///   - timeout: How long it may run.
    ///   - isCancelled: Asked every few milliseconds; true stops the command.
    package static func run(_ command: String, environment: [String: String], input: [UInt8], timeout: Duration,
                            isCancelled: () -> Bool = { false }) -> Outcome {
        let channel: (reader: Int32, writer: Int32)
        switch SystemCalls.inputChannel() {
        case .success(let opened): channel = opened
        case .failure(let error): return .failedToStart(error.description)
        }
        let spawned = SystemCalls.spawnShell(command, environment: environment, input: channel.reader)
        SystemCalls.closeDescriptor(channel.reader)
        let pid: pid_t
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let error):
            SystemCalls.closeDescriptor(channel.writer)
            return .failedToStart(error.description)
        }
        SystemCalls.sendAll(channel.writer, input)
        SystemCalls.closeDescriptor(channel.writer)

        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = SystemCalls.status(ofChild: pid) {
                switch status {
                case .exited(let code): return .exited(code)
                case .signaled(let signal): return .signaled(signal)
                }
            }
            let cancelled = isCancelled()
            if cancelled || ContinuousClock.now >= deadline {
                stop(pid)
                return cancelled ? .cancelled : .timedOut
            }
            SystemCalls.nap(milliseconds: 10)
        }
    }

    /// SIGTERM to the group, a second's grace, then SIGKILL; reaps the child.
    private static func stop(_ pid: pid_t) {
        SystemCalls.signalGroup(pid, SIGTERM)
        let grace = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < grace {
            if SystemCalls.status(ofChild: pid) != nil {
                SystemCalls.signalGroup(pid, SIGKILL)  // whatever it left behind in its group
                return
            }
            SystemCalls.nap(milliseconds: 10)
        }
        SystemCalls.signalGroup(pid, SIGKILL)
        while SystemCalls.status(ofChild: pid) == nil { SystemCalls.nap(milliseconds: 10) }
    }
}
