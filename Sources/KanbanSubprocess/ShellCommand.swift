#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell command run for an event (`kanban watch --exec`): `/bin/sh -c` in a process group of its own, the
/// input on standard input, a time limit after which the whole group gets SIGTERM and then SIGKILL, so that
/// nothing it started outlives it.
///
/// The watcher's `kanban watch --exec` runs it; the `kanban` executable decides what to run and how to report the
/// outcome.
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
        // The input from an unlinked file, as Subprocess.run gives it: a command that never reads it blocks nothing.
        let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let inputDescriptor: Int32
        do throws(SubprocessStartError) {
            inputDescriptor = try Subprocess.inputFile(input, temporaryDirectory: directory)
        } catch {
            return .failedToStart(error.reason)
        }
        // Standard output goes to this process's standard error, so it never mixes with events on standard output.
        let spawned = Subprocess.spawnInOwnGroup("/bin/sh", ["-c", command], environment: environment, input: inputDescriptor,
                                                 output: 2, errors: nil)
        close(inputDescriptor)
        let pid: pid_t
        switch spawned {
        case .success(let child): pid = child
        case .failure(let error): return .failedToStart("cannot start /bin/sh: \(error.reason)")
        }

        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            }
            if result < 0 && errno != EINTR { return .exited(-1) }
            let cancelled = isCancelled()
            if cancelled || ContinuousClock.now >= deadline {
                _ = Subprocess.terminateGroup(pid)
                return cancelled ? .cancelled : .timedOut
            }
            Subprocess.pause(.milliseconds(10))
        }
    }
}
