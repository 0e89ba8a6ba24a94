#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanSubprocess

extension SyncTests {
    /// Running child processes: both pipes drained, standard input empty, time limits that kill the whole group.
    @Suite struct SubprocessTests {
        private let shell = "/bin/sh"

        @Test func collectsBothStreamsAndTheExitStatus() throws {
            let result = try Subprocess.run(shell, ["-c", "echo out; echo err >&2; exit 3"], environment: [:], timeout: .seconds(30))
            #expect(result.status == 3)
            #expect(String(decoding: result.output, as: UTF8.self) == "out\n")
            #expect(String(decoding: result.errorOutput, as: UTF8.self) == "err\n")
            #expect(!result.timedOut)
        }

        @Test func givesTheChildEmptyStandardInputAndExactlyTheEnvironment() throws {
            let result = try Subprocess.run(shell, ["-c", "cat; echo \"[$ONLY]\"; env | wc -l"], environment: ["ONLY": "this"], timeout: .seconds(30))
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.first == "[this]")
            // sh itself adds PWD (and may add SHLVL and _), but nothing of the test runner's environment comes through.
            #expect((Int(lines.last ?? "") ?? 99) <= 4, "\(lines)")
        }

        @Test func drainsLargeOutputOnBothStreamsWithoutDeadlock() throws {
            // 2 MB on each stream, interleaved: a reader of one pipe at a time would block the child forever.
            let script = "i=0; while [ $i -lt 2048 ]; do head -c 1024 /dev/zero; head -c 1024 /dev/zero >&2; i=$((i+1)); done"
            let result = try Subprocess.run(shell, ["-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(60))
            #expect(result.status == 0)
            #expect(result.output.count == 2_097_152)
            #expect(result.errorOutput.count == 2_097_152)
        }

        @Test func killsTheWholeProcessGroupWhenTimeIsUp() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-subprocess-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The child starts a grandchild that would outlive it, and both ignore nothing.
            let script = "sleep 30 & echo $! > \(directory)/grandchild; sleep 30"
            let clock = ContinuousClock()
            let start = clock.now
            let result = try Subprocess.run(shell, ["-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: .milliseconds(500))
            let elapsed = clock.now - start
            #expect(result.timedOut)
            #expect(elapsed < .seconds(10), "took \(elapsed)")
            let text = try String(contentsOfFile: directory + "/grandchild", encoding: .utf8)
            let grandchild = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            // The grandchild got the group's signal; it is gone once its parent (init or a subreaper) reaps it.
            var isGone = false
            for _ in 0..<200 where !isGone {
                isGone = kill(grandchild, 0) != 0 || isZombie(grandchild)
                if !isGone { usleep(25_000) }
            }
            #expect(isGone, "the grandchild \(grandchild) survived the time limit")
        }

        @Test func killsAChildThatIgnoresTermination() throws {
            let result = try Subprocess.run(shell, ["-c", "trap '' TERM; while :; do sleep 1; done"], environment: ["PATH": "/usr/bin:/bin"],
                                            timeout: .milliseconds(300))
            #expect(result.timedOut)
            #expect(result.status == 128 + SIGKILL || result.status == 128 + SIGTERM)
        }

        @Test func reportsAMissingProgram() {
            #expect(throws: SubprocessStartError.self) {
                try Subprocess.run("/nonexistent/program", [], environment: [:], timeout: .seconds(1))
            }
        }

        @Test func reportsASignalAsOneHundredTwentyEightPlusItsNumber() throws {
            let result = try Subprocess.run(shell, ["-c", "kill -USR1 $$"], environment: [:], timeout: .seconds(30))
            #expect(result.status == 128 + SIGUSR1)
        }

        private func isZombie(_ pid: pid_t) -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            guard let close = status.lastIndex(of: ")") else { return false }
            return status[status.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }
    }
}
