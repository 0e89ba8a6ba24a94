import Foundation
import KanbanTestSupport
import Testing

extension GitTests {
    /// `kanban report` killed at each system call that writes its history cache (with strace's fault injection):
    /// whatever was left, the next report reads what a report without the cache reads.
    @Suite struct ReportCacheKillTests {
        static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

        @Test(.enabled(if: strace != nil, "strace is not installed: the kill points are not tried"))
        func aReportKilledWhileWritingItsCacheLeavesNothingTrusted() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                for day in 0..<6 {
                    try ReportCommandTests.kanban(workspace, ["add", "Card \(day)", "--column", "in-progress", "--commit"], in: ana, day: day)
                    try ReportCommandTests.kanban(workspace, ["move", "card-\(day)", "done", "--commit"], in: ana, day: day + 1)
                }
                let arguments = ["report", "--json", "--until", "2026-01-31"]
                let expected = try workspace.kanban(arguments, in: ana, environment: ["KANBAN_HISTORY_CACHE": "off"]).stdout
                let kanban = try KanbanProcess.binaryPath()
                var environment = workspace.environment
                for name in ["NO_COLOR", "KANBAN_BOARD", "KANBAN_COMMIT", "KANBAN_GIT", "KANBAN_HISTORY_CACHE"] { environment[name] = nil }
                var killed = 0
                for syscall in ["openat", "write", "renameat"] {
                    for occurrence in 1...40 {
                        // A fresh start: no cache, so that this run writes one.
                        _ = try? FileManager.default.removeItem(atPath: ana + "/.git/kanban-index")
                        let run = try ProgramRun.run(Self.strace!, ["-f", "-o", "/dev/null", "-e", "trace=\(syscall)",
                                                                    "-e", "inject=\(syscall):signal=SIGKILL:when=\(occurrence)", "--",
                                                                    kanban, "--board", ana] + arguments, environment: environment)
                        if run.status == 0 { break }
                        killed += 1
                        let next = try workspace.kanban(arguments, in: ana)
                        #expect(next.status == 0 && next.stdout == expected, "killed at \(syscall) #\(occurrence): \(next.stderr)")
                        let again = try workspace.kanban(arguments, in: ana)
                        #expect(again.stdout == expected, "the run after the one killed at \(syscall) #\(occurrence)")
                    }
                }
                #expect(killed > 3, "the kills never hit: \(killed)")
            }
        }
    }
}
