import Foundation
import Testing

@testable import KanbanServer

extension GitTests {
    /// `--commit`, `KANBAN_COMMIT` and `autocommit: true`: one commit per command, of that command's files only.
    @Suite struct CommitOptionTests {
        /// A repository whose top is a board made by `kanban init`, committed.
        private func makeRepository(_ workspace: GitWorkspace) throws -> String {
            let repository = workspace.root + "/repo"
            try workspace.git(["init", "--quiet", repository], in: workspace.root)
            let made = try workspace.kanban(["init", ".", "--title", "Team"], in: repository)
            try #require(made.status == 0, "\(made)")
            try workspace.git(["add", "--all"], in: repository)
            try workspace.git(["commit", "--quiet", "-m", "Start"], in: repository)
            return repository
        }

        /// Runs `kanban` with `--commit` and expects success and one new commit with `subject`, and a clean board.
        private func expectCommit(_ arguments: [String], subject: String, in repository: String, _ workspace: GitWorkspace,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let before = try workspace.git(["rev-list", "--count", "HEAD"], in: repository)
            let result = try workspace.kanban(arguments + ["--commit"], in: repository)
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stdout.lines.last?.hasSuffix(" " + subject) == true, "\(result)", sourceLocation: sourceLocation)
            #expect(try workspace.git(["rev-list", "--count", "HEAD"], in: repository) == String((Int(before) ?? 0) + 1),
                    sourceLocation: sourceLocation)
            #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == subject, sourceLocation: sourceLocation)
            #expect(try workspace.git(["status", "--porcelain"], in: repository).isEmpty, sourceLocation: sourceLocation)
        }

        @Test func commitsEachMutatingCommand() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try expectCommit(["add", "Fix login bug"], subject: "Add \"Fix login bug\" to To Do", in: repository, workspace)
                try expectCommit(["add", "Write docs", "--column", "in-progress"], subject: "Add \"Write docs\" to In Progress",
                                 in: repository, workspace)
                try expectCommit(["label", "add", "bug", "Bug", "--colour", "#e74c3c"], subject: "Add label \"Bug\"", in: repository, workspace)
                try expectCommit(["set", "fix-login-bug", "--add-label", "bug", "--field", "due=2026-12-01"],
                                 subject: "Edit \"Fix login bug\" (labels, due)", in: repository, workspace)
                try expectCommit(["move", "fix-login-bug", "done"], subject: "Move \"Fix login bug\" from To Do to Done", in: repository, workspace)
                try expectCommit(["move", "fix-login-bug", "write-docs", "--to", "todo"], subject: "Move 2 cards to To Do", in: repository, workspace)
                try expectCommit(["move", "write-docs", "--top"], subject: "Reorder \"Write docs\" in To Do", in: repository, workspace)
                try expectCommit(["archive", "write-docs"], subject: "Archive \"Write docs\"", in: repository, workspace)
                try expectCommit(["unarchive", "write-docs", "--column", "done"], subject: "Unarchive \"Write docs\" to Done", in: repository, workspace)
                try expectCommit(["delete", "write-docs"], subject: "Delete \"Write docs\"", in: repository, workspace)
                try expectCommit(["column", "add", "review", "In Review", "--after", "in-progress"], subject: "Add column \"In Review\"",
                                 in: repository, workspace)
                try expectCommit(["column", "rename", "review", "Review"], subject: "Rename column \"In Review\" to \"Review\"", in: repository, workspace)
                try expectCommit(["column", "move", "review", "--first"], subject: "Move column \"Review\" to position 1", in: repository, workspace)
                try expectCommit(["column", "collapse", "review"], subject: "Collapse column \"Review\"", in: repository, workspace)
                try expectCommit(["column", "remove", "review"], subject: "Remove column review", in: repository, workspace)
                try expectCommit(["label", "rename", "bug", "Defect"], subject: "Rename label \"Bug\" to \"Defect\"", in: repository, workspace)
                try expectCommit(["label", "remove", "bug", "--strip"], subject: "Remove label bug and strip it from 1 card", in: repository, workspace)
                let body = try workspace.git(["log", "-1", "--format=%b"], in: repository)
                #expect(body.contains("Label: bug"))

                // A hand-made card, repaired by doctor --fix.
                try workspace.write("# Buy milk\n", to: repository + "/cards/todo/buy-milk.md")
                try workspace.git(["add", "cards/todo/buy-milk.md"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "hand-made"], in: repository)
                try expectCommit(["doctor", "--fix"], subject: "Repair board: 1 fix", in: repository, workspace)
            }
        }

        @Test func commitsAHandEditThatReadsBackCleanly() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try expectCommit(["add", "Fix login bug"], subject: "Add \"Fix login bug\" to To Do", in: repository, workspace)
                let appending = workspace.root + "/append.sh"
                try workspace.script(appending, #"printf '\nSteps to reproduce.\n' >> "$1""#)
                let count = { try workspace.git(["rev-list", "--count", "HEAD"], in: repository) }
                let edited = try workspace.kanban(["edit", "fix-login-bug", "--commit"], in: repository,
                                                  environment: ["EDITOR": "sh " + appending])
                #expect(edited.status == 0, "\(edited)")
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Edit \"Fix login bug\" (body)")
                #expect(try workspace.git(["status", "--porcelain"], in: repository).isEmpty)

                // Closing the editor without a change commits nothing.
                let commits = try count()
                let unchanged = try workspace.kanban(["edit", "fix-login-bug", "--commit"], in: repository, environment: ["EDITOR": "true"])
                #expect(unchanged.status == 0, "\(unchanged)")
                #expect(try count() == commits)

                // A card left unreadable is reported and not committed.
                let breaking = workspace.root + "/break.sh"
                try workspace.script(breaking, #"printf -- '---\ntitle: x\n' > "$1""#)
                let broken = try workspace.kanban(["edit", "fix-login-bug", "--commit"], in: repository,
                                                  environment: ["EDITOR": "sh " + breaking])
                #expect(broken.status == 1, "\(broken)")
                #expect(try count() == commits)
                #expect(try !workspace.git(["status", "--porcelain"], in: repository).isEmpty)
            }
        }

        @Test func commitsOnlyTheCommandsFiles() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                #expect(try workspace.kanban(["add", "Not yet"], in: repository).status == 0)
                try workspace.write("scratch\n", to: repository + "/notes.txt")
                let result = try workspace.kanban(["add", "Now", "--commit"], in: repository)
                #expect(result.status == 0, "\(result)")
                #expect(try workspace.git(["show", "--format=", "--name-only", "HEAD"], in: repository) == "cards/todo/now.md")
                #expect(try workspace.run(["status", "--porcelain"], in: repository).output.lines == ["?? cards/todo/not-yet.md", "?? notes.txt"])
            }
        }

        @Test func commitsWithTheEnvironmentVariableOrTheBoardSetting() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                let viaEnvironment = try workspace.kanban(["add", "Via environment"], in: repository, environment: ["KANBAN_COMMIT": "1"])
                #expect(viaEnvironment.status == 0)
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Add \"Via environment\" to To Do")

                let board = try workspace.read(repository + "/board.md")
                try workspace.write(board.replacingOccurrences(of: "title: Team\n", with: "title: Team\nautocommit: true\n"),
                                    to: repository + "/board.md")
                try workspace.git(["commit", "--quiet", "-am", "Turn on autocommit"], in: repository)
                #expect(try workspace.kanban(["add", "Automatic"], in: repository).status == 0)
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Add \"Automatic\" to To Do")
                // KANBAN_COMMIT=0 turns it off for one command.
                #expect(try workspace.kanban(["add", "Manual"], in: repository, environment: ["KANBAN_COMMIT": "0"]).status == 0)
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Add \"Automatic\" to To Do")
            }
        }

        @Test func refusesToCommitOutsideGitBeforeChangingAnything() throws {
            try withGitWorkspace { workspace in
                let plain = workspace.root + "/plain"
                #expect(try workspace.kanban(["init", plain], in: workspace.root).status == 0)
                let result = try workspace.kanban(["add", "Somewhere", "--commit"], in: plain)
                #expect(result.status == 1)
                #expect(result.stdout == "")
                #expect(result.stderr.contains("error: the board is not in a git repository"))
                #expect(result.stderr.contains("Nothing was changed."))
                #expect(!workspace.exists(plain + "/cards/todo/somewhere.md"))

                // The board's own setting only warns: a copy of the board outside git still works.
                let board = try workspace.read(plain + "/board.md")
                try workspace.write(board.replacingOccurrences(of: "---\n\n", with: "autocommit: true\n---\n\n"), to: plain + "/board.md")
                let automatic = try workspace.kanban(["add", "Elsewhere"], in: plain)
                #expect(automatic.status == 0, "\(automatic)")
                #expect(automatic.stderr.contains("warning: board.md sets 'autocommit: true' but the board is not in a git repository"))
            }
        }

        @Test func keepsJSONOutputCleanAndSkipsNoOps() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                let json = try workspace.kanban(["add", "In JSON", "--json", "--commit"], in: repository)
                #expect(json.status == 0)
                #expect(json.stdout.hasPrefix("{") && json.stdout.hasSuffix("}\n"), "\(json)")
                #expect(json.stderr.hasPrefix("committed "))
                let head = try workspace.git(["rev-parse", "HEAD"], in: repository)
                let same = try workspace.kanban(["move", "in-json", "todo", "--commit"], in: repository)
                #expect(same.status == 0)
                #expect(same.stdout == "in-json is already in To Do\n")
                #expect(try workspace.git(["rev-parse", "HEAD"], in: repository) == head)
                let quiet = try workspace.kanban(["add", "Quietly", "--commit", "--quiet"], in: repository)
                #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Add \"Quietly\" to To Do")
            }
        }
    }
}
