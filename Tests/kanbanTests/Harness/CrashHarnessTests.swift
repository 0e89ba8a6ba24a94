#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `kanban-harness crash`, at a size for CI: every scenario, a few kill points each.
@Suite struct CrashHarnessTests {
    @Test func boardSurvivesAKillAtEveryKindOfPoint() throws {
        // Three kill points per scenario (the first, the middle and the last call that changes the disk): about
        // 15 s on two cores; the whole run is `kanban-harness crash` with no limit.
        guard let result = try HarnessRun.passing(["crash", "--limit", "3"]) else { return }
        #expect(result.output.contains(" interruption points in "), "\(result)")
    }
}

/// Running the built `kanban-harness` (beside the `kanban` binary the tests run) with its output in a file, the way
/// CI runs it.
enum HarnessRun {
    /// The exit status the harness gives when a tool it needs (strace, git) is missing: a skip.
    static let skipped: Int32 = 77

    struct Outcome: CustomStringConvertible {
        var status: Int32
        var output: String
        var description: String { "exit status \(status)\n\(output)" }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `kanban-harness arguments` and expects it to pass (exit 0); nil, with the reason printed, when it skipped
    /// for want of a tool.
    static func passing(_ arguments: [String], timeout: Double = 600,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome? {
        let result = try run(arguments, timeout: timeout)
        let command = "kanban-harness " + arguments.joined(separator: " ")
        if result.status == skipped {
            print("\(command): skipped: \(result.output)")
            return nil
        }
        #expect(result.status == 0, "\(command): \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs `kanban-harness arguments` and waits for it, at most `timeout` seconds (then kills it and throws).
    static func run(_ arguments: [String], timeout: Double) throws -> Outcome {
        let kanban = try KanbanProcess.binaryPath()
        let harness = (kanban as NSString).deletingLastPathComponent + "/kanban-harness"
        guard FileManager.default.isExecutableFile(atPath: harness) else {
            throw Failure(description: "no kanban-harness beside \(kanban); build it with 'swift build --product kanban-harness'")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-harness-test-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["KANBAN_BOARD"] = nil
        environment["KANBAN_COMMIT"] = nil
        let argv = ([harness] + arguments + ["--kanban", kanban]).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, harness, &actions, nil, argv, envp)
        guard code == 0 else { throw Failure(description: "cannot start \(harness): \(String(cString: strerror(code)))") }

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Failure(description: "kanban-harness \(arguments.joined(separator: " ")) ran longer than \(Int(timeout)) s; killed\n\(output)")
            }
            usleep(100_000)
        }
        let signal = status & 0x7f
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: output)
    }
}
