import Foundation
import Testing

extension GitTests {
    /// The commit hooks `kanban git-setup` installs (its merge driver's setup is in ``MergeDriverCommandTests``).
    @Suite struct GitSetupCommandTests {
        static let hookNames = ["prepare-commit-msg", "commit-msg"]

        /// A repository at `repo` with a board at `board` inside it (`.` for its top), nothing committed.
        private func makeRepository(_ workspace: GitWorkspace, board: String = ".") throws -> (repository: String, board: String) {
            let repository = workspace.root + "/repo"
            try workspace.git(["init", "--quiet", repository], in: workspace.root)
            let directory = board == "." ? repository : repository + "/" + board
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let made = try workspace.kanban(["init", "."], in: directory)
            try #require(made.status == 0, "\(made)")
            return (repository, directory)
        }

        private func isExecutable(_ path: String) -> Bool {
            FileManager.default.isExecutableFile(atPath: path)
        }

        @Test func installsBothCommitHooksOnce() throws {
            try withGitWorkspace { workspace in
                let (repository, _) = try makeRepository(workspace)
                let first = try workspace.kanban(["git-setup"], in: repository)
                #expect(first.status == 0, "\(first)")
                #expect(first.stderr.isEmpty, "\(first)")
                #expect(Array(first.stdout.lines.suffix(2)) == ["installed the prepare-commit-msg hook: .git/hooks/prepare-commit-msg",
                                                                "installed the commit-msg hook: .git/hooks/commit-msg"])
                var scripts: [String] = []
                for name in Self.hookNames {
                    let path = repository + "/.git/hooks/" + name
                    #expect(isExecutable(path))
                    let script = try workspace.read(path)
                    #expect(script.hasPrefix("#!/bin/sh\n"), "\(script)")
                    let arguments = name == "prepare-commit-msg" ? "\"$1\" \"$2\"" : "\"$1\""
                    #expect(script.contains("\ncommand -v kanban >/dev/null 2>&1 && kanban commit-msg-hook \(arguments) || :\n"), "\(script)")
                    scripts.append(script)
                }

                let again = try workspace.kanban(["git-setup"], in: repository)
                #expect(again.status == 0, "\(again)")
                #expect(Array(again.stdout.lines.suffix(2)) == ["the prepare-commit-msg hook is already kanban's: .git/hooks/prepare-commit-msg",
                                                                "the commit-msg hook is already kanban's: .git/hooks/commit-msg"])
                #expect(try Self.hookNames.map { try workspace.read(repository + "/.git/hooks/" + $0) } == scripts)

                // Another command (kanban moved) rewrites kanban's own hooks.
                let moved = try workspace.kanban(["git-setup", "--driver", "/opt/kanban/bin/kanban"], in: repository)
                #expect(moved.status == 0, "\(moved)")
                #expect(Array(moved.stdout.lines.suffix(2)) == ["updated the prepare-commit-msg hook: .git/hooks/prepare-commit-msg",
                                                                "updated the commit-msg hook: .git/hooks/commit-msg"])
                #expect(try workspace.read(repository + "/.git/hooks/commit-msg")
                            .contains("command -v /opt/kanban/bin/kanban >/dev/null 2>&1 && /opt/kanban/bin/kanban commit-msg-hook \"$1\" || :"))
            }
        }

        @Test func leavesSomeoneElsesHookAloneAndSaysWhatToAddToIt() throws {
            try withGitWorkspace { workspace in
                let (repository, _) = try makeRepository(workspace)
                let theirs = repository + "/.git/hooks/commit-msg"
                try workspace.script(theirs, "grep -q . \"$1\"")
                let before = try workspace.read(theirs)
                let result = try workspace.kanban(["git-setup"], in: repository)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.lines.last == "installed the prepare-commit-msg hook: .git/hooks/prepare-commit-msg", "\(result)")
                #expect(result.stderr.lines == [
                    "warning: .git/hooks/commit-msg is not kanban's hook; left as it is. So that a card deleted with 'kanban delete' "
                        + "and committed with plain git counts from when it was deleted, add this line to it:",
                    "  command -v kanban >/dev/null 2>&1 && kanban commit-msg-hook \"$1\" || :",
                ], "\(result)")
                #expect(try workspace.read(theirs) == before)
                let again = try workspace.kanban(["git-setup"], in: repository)
                #expect(again.status == 0 && again.stderr.contains("is not kanban's hook"), "\(again)")
                #expect(try workspace.read(theirs) == before)
            }
        }

        /// The line the warning gives, added to someone's own hook, adds the trailers as kanban's hook does.
        @Test func theLineForSomeoneElsesHookAddsTheTrailers() throws {
            try withGitWorkspace { workspace in
                let (repository, _) = try makeRepository(workspace)
                for name in Self.hookNames {
                    try workspace.script(repository + "/.git/hooks/" + name, "echo \"their \(name) ran\" >&2")
                }
                let result = try workspace.kanban(["git-setup"], in: repository)
                let lines = result.stderr.lines.filter { $0.hasPrefix("  ") }.map { $0.dropFirst(2) }
                try #require(lines.count == 2, "\(result)")
                for (name, line) in zip(Self.hookNames, lines) {
                    try workspace.script(repository + "/.git/hooks/" + name, "echo \"their \(name) ran\" >&2\n" + line)
                }
                #expect(try workspace.kanban(["add", "Task"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Add a task"], in: repository)
                #expect(try workspace.kanban(["delete", "task"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                let committed = try workspace.run(["commit", "--quiet", "-m", "Tidy up"], in: repository)
                #expect(committed.status == 0 && committed.errorOutput.contains("their commit-msg ran"), "\(committed)")
                let message = try workspace.git(["log", "-1", "--format=%B"], in: repository)
                #expect(message.lines.filter { $0.hasPrefix("Deleted: task 20") }.count == 1, "\(message)")
            }
        }

        /// With `core.hooksPath` (relative: to the working tree's top) the hooks go there, and work for a board in a
        /// directory of the repository.
        @Test func installsTheHooksInCoreHooksPathForABoardInASubdirectory() throws {
            try withGitWorkspace { workspace in
                let (repository, board) = try makeRepository(workspace, board: "planning/board")
                try workspace.git(["config", "core.hooksPath", "tools/hooks"], in: repository)
                let result = try workspace.kanban(["git-setup"], in: board)
                #expect(result.status == 0, "\(result)")
                for name in Self.hookNames {
                    #expect(isExecutable(repository + "/tools/hooks/" + name), "\(result)")
                    #expect(!workspace.exists(repository + "/.git/hooks/" + name))
                }
                #expect(result.stdout.contains("installed the commit-msg hook: \(repository)/tools/hooks/commit-msg"), "\(result)")
                #expect(try workspace.kanban(["add", "Task"], in: board).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Add a task"], in: repository)
                #expect(try workspace.kanban(["delete", "task"], in: board).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Tidy up"], in: board)
                #expect(try workspace.git(["log", "-1", "--format=%B"], in: repository).contains("\n\nDeleted: task 20"))
            }
        }

        /// Where the hook cannot find kanban it does nothing, and the commit goes ahead without a word from it.
        @Test func theHookDoesNothingWithoutKanban() throws {
            try withGitWorkspace { workspace in
                let (repository, _) = try makeRepository(workspace)
                #expect(try workspace.kanban(["git-setup"], in: repository).status == 0)
                #expect(try workspace.kanban(["add", "Task"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Add a task"], in: repository)
                #expect(try workspace.kanban(["delete", "task"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                // git itself is run by its path; the hook finds only the system's programs.
                let committed = try workspace.run(["commit", "--quiet", "-m", "Tidy up"], in: repository, environment: ["PATH": "/usr/bin:/bin"])
                #expect(committed.status == 0 && committed.errorOutput.isEmpty, "\(committed)")
                #expect(try workspace.git(["log", "-1", "--format=%B"], in: repository).trimmingCharacters(in: .newlines) == "Tidy up")
            }
        }
    }
}
