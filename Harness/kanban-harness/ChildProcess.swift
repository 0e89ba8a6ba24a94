#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A program run by the harness: started with `posix_spawn` in a process group of its own, standard input from
/// `/dev/null`, both outputs collected while it runs.
final class ChildProcess: @unchecked Sendable {
    /// What a finished run gave.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        /// The signal that ended it, if one did.
        var signal: Int32?
        var output: String
        var errorOutput: String
        var timedOut: Bool
        var succeeded: Bool { status == 0 && signal == nil && !timedOut }
        var description: String {
            let how = timedOut ? "timed out" : signal.map { "killed by signal \($0)" } ?? "exit status \(status)"
            return "\(how)\n--- stdout ---\n\(output)--- stderr ---\n\(errorOutput)"
        }
    }

    let pid: pid_t
    private let outputDescriptor: Int32
    private let errorDescriptor: Int32
    private var collected: [[UInt8]] = [[], []]
    private var open = [true, true]

    private init(pid: pid_t, output: Int32, error: Int32) {
        self.pid = pid
        outputDescriptor = output
        errorDescriptor = error
    }

    /// Starts `executable` (an absolute path) with `arguments`, in `directory`, with exactly `environment`.
    static func start(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String]) throws -> ChildProcess {
        var output: [Int32] = [-1, -1]
        var error: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&error) == 0 else { throw HarnessError(message: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        for descriptor in [output[0], error[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, error[1], 2)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // The child starts in `directory` by way of the shell (posix_spawn's chdir action is not portable).
        let argv = (["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(output[1])
        close(error[1])
        guard code == 0 else {
            close(output[0])
            close(error[0])
            throw HarnessError(message: "cannot start \(executable): \(String(cString: strerror(code)))")
        }
        return ChildProcess(pid: pid, output: output[0], error: error[0])
    }

    /// Runs a program to its end (killing its group after `timeout` seconds).
    static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String],
                    timeout: Double = 120) throws -> Outcome {
        try start(executable, arguments, in: directory, environment: environment).wait(timeout: timeout)
    }

    /// Waits for the process to end, reading its output meanwhile; kills its group after `timeout` seconds.
    func wait(timeout: Double) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while open.contains(true) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                timedOut = true
                kill(-pid, SIGKILL)
            }
            drain(milliseconds: timedOut ? 100 : Int32(min(1_000, max(1, left * 1_000))))
            if timedOut { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        for (index, descriptor) in [outputDescriptor, errorDescriptor].enumerated() where open[index] {
            close(descriptor)
            open[index] = false
        }
        let signal = status & 0x7f
        return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, signal: signal == 0 ? nil : signal,
                       output: String(decoding: collected[0], as: UTF8.self), errorOutput: String(decoding: collected[1], as: UTF8.self),
                       timedOut: timedOut)
    }

    /// Sends `signal` to the process's group.
    func signal(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// What the process has written to standard output so far (reading what is waiting, for at most `milliseconds`).
    func outputSoFar(waiting milliseconds: Int32 = 0) -> String {
        drain(milliseconds: milliseconds)
        return String(decoding: collected[0], as: UTF8.self)
    }

    private func drain(milliseconds: Int32) {
        var descriptors = [outputDescriptor, errorDescriptor].enumerated().map { index, descriptor in
            pollfd(fd: open[index] ? descriptor : -1, events: Int16(POLLIN), revents: 0)
        }
        guard poll(&descriptors, 2, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for index in 0..<2 where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
            let count = read(descriptors[index].fd, &buffer, buffer.count)
            if count > 0 {
                collected[index] += buffer[0..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(descriptors[index].fd)
                open[index] = false
            }
        }
    }
}

/// The environment the harness runs `kanban` and git with: nothing from the person's own settings leaks in.
func harnessEnvironment(home: String, extra: [String: String] = [:]) -> [String: String] {
    var environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Harness", "GIT_AUTHOR_EMAIL": "harness@example.com",
        "GIT_COMMITTER_NAME": "Harness", "GIT_COMMITTER_EMAIL": "harness@example.com",
    ]
    for (key, value) in extra { environment[key] = value }
    return environment
}

/// A new empty directory under the system's temporary directory, for one run.
func makeWorkDirectory(_ label: String) throws -> String {
    var template = Array((NSTemporaryDirectory() + "/kanban-harness-\(label)-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw HarnessError(message: "cannot make a temporary directory: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// Finds `name` on `PATH`; nil when it is not installed.
func findProgram(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = String(directory) + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
