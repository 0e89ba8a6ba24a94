import Foundation
import Testing

extension GitTests {
    /// What one committed change costs, seen by `strace` (issue 36: a `move --commit` opened board.md nine times and
    /// ran twelve git processes). Skipped where strace is absent.
    @Suite struct CommitProcessesTests {
        /// The git processes a committed move runs, and why each is needed (docs/git.md lists them too).
        static let gitSteps = [
            "rev-parse",     // where the repository is, and whether a merge or rebase is under way (once per change)
            "symbolic-ref",  // HEAD is on a branch: a commit on a detached HEAD would be left behind (once per change)
            "ls-files",      // which paths git knows, and the card's older copies in the index, in one listing
            "add",           // stage exactly the change's files
            "diff",          // whether they hold a change at all: no empty commits
            "commit",        // the commit, of those paths only, hooks run
            "rev-parse",     // the new commit's hash, for the output and --json
        ]

        @Test func aCommittedMoveReadsTheBoardFileOnceAndRunsOnlyTheGitItNeeds() throws {
            guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
                print("skipped: strace is not installed")
                return
            }
            try withGitWorkspace { workspace in
                let repository = workspace.root + "/repo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                #expect(try workspace.kanban(["init", ".", "--title", "Team"], in: repository).status == 0)
                #expect(try workspace.kanban(["add", "Fix login bug"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Start"], in: repository)

                let log = workspace.root + "/strace.log"
                let traced = try runProgram(strace, ["-f", "-qq", "-s", "256", "-e", "trace=execve,openat", "-o", log,
                                                     try KanbanProcess.binaryPath(), "--board", repository, "move", "fix-login-bug", "done", "--commit"],
                                            environment: workspace.environment)
                #expect(traced.status == 0, "\(traced.output)")
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Move \"Fix login bug\" from To Do to Done")

                let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
                let kanban = try #require(lines.first?.split(separator: " ").first.map(String.init))
                let boardOpens = lines.filter { $0.hasPrefix(kanban + " ") && $0.contains("openat(") && $0.contains("\"board.md\"") && !$0.contains("ENOENT") }
                #expect(boardOpens.count == 1, "\(boardOpens.joined(separator: "\n"))")
                #expect(gitSteps(in: lines, repository: repository) == Self.gitSteps)
            }
        }

        /// The git subcommands kanban ran (always with `-C <board>`; git's own helpers run without), in order.
        private func gitSteps(in lines: [String], repository: String) -> [String] {
            lines.compactMap { line -> String? in
                guard line.contains("execve("), line.hasSuffix("= 0"), let open = line.range(of: ", ["),
                      let close = line.range(of: "], ", range: open.upperBound..<line.endIndex) else { return nil }
                let words = line[open.upperBound..<close.lowerBound].components(separatedBy: "\", \"").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                guard words.count > 2, words[1] == "-C", words[2].hasSuffix("/repo") else { return nil }
                var index = 3
                while index < words.count {
                    switch words[index] {
                    case "-c", "-C": index += 2
                    case let word where word.hasPrefix("--"): index += 1
                    default: return words[index]
                    }
                }
                return nil
            }
        }
    }
}
