#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Starts the adversaries' child processes one at a time.
///
/// ``ChildProcess/start(_:_:in:environment:)`` makes its pipes and closes the child's ends around `posix_spawn`;
/// a child started from another thread in between would inherit those ends and keep the first child's output
/// open after it exits (a `kanban watch` would keep it open for good). Starting under one lock rules that out.
enum BoardProcesses {
    private static let spawning = Mutex(())

    /// Starts `executable` with `arguments` in `directory`; see ``ChildProcess/start(_:_:in:environment:)``.
    static func start(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String]) throws -> ChildProcess {
        try spawning.withLock { _ in try ChildProcess.start(executable, arguments, in: directory, environment: environment) }
    }

    /// Writes an executable script: under the same lock, so that no child started meanwhile inherits the script
    /// open for writing (which would make running it fail with `ETXTBSY`, "Text file busy").
    static func writeScript(_ text: String, to path: String) throws {
        try spawning.withLock { _ in
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            guard chmod(path, 0o755) == 0 else { throw HarnessError(message: "cannot make \(path) executable: \(String(cString: strerror(errno)))") }
        }
    }

    /// Runs a program to its end, killing its process group after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String],
                    timeout: Double = 120) throws -> ChildProcess.Outcome {
        try start(executable, arguments, in: directory, environment: environment).wait(timeout: timeout)
    }
}
