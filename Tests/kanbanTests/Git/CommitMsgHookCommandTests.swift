import Foundation
import Testing

extension GitTests {
    /// `kanban commit-msg-hook`, run by the hooks `kanban git-setup` installs, in commits made with plain git.
    @Suite struct CommitMsgHookCommandTests {
        /// A repository with a board, the hooks installed, and the cards `titles` (as slugs: lowercase) in To Do,
        /// committed.
        private func makeRepository(_ workspace: GitWorkspace, cards titles: [String]) throws -> String {
            let repository = workspace.root + "/repo"
            try workspace.git(["init", "--quiet", repository], in: workspace.root)
            for arguments in [["init", "."], ["git-setup"]] + titles.map({ ["add", $0] }) {
                let result = try workspace.kanban(arguments, in: repository)
                try #require(result.status == 0, "\(arguments): \(result)")
            }
            try workspace.git(["add", "--all"], in: repository)
            try workspace.git(["commit", "--quiet", "-m", "Start"], in: repository)
            return repository
        }

        private func kanban(_ arguments: [String], in directory: String, _ workspace: GitWorkspace,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try workspace.kanban(arguments, in: directory)
            try #require(result.status == 0, "kanban \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        }

        /// The `Deleted:` trailers of the commit `revision`.
        private func deletedTrailers(in repository: String, _ workspace: GitWorkspace, of revision: String = "HEAD") throws -> [String] {
            try workspace.git(["log", "-1", "--format=%(trailers:key=Deleted,valueonly)", revision], in: repository).lines.filter { !$0.isEmpty }
        }

        /// `slug`'s delete as this clone noted it: `slug 2026-...Z`.
        private func note(of slug: String, in repository: String, _ workspace: GitWorkspace) throws -> String? {
            try workspace.read(repository + "/.git/kanban-deletions").lines.last { $0.hasPrefix(slug + "\t") }?
                .replacingOccurrences(of: "\t", with: " ")
        }

        @Test func addsATrailerOnlyForACardGoneFromTheBoardWhoseDeleteWasNoted() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace, cards: ["Deleted", "Moved", "Archived", "Removed"])
                try kanban(["delete", "deleted"], in: repository, workspace)
                // Notes for the moved and the archived card too (say an earlier delete of a card by that name).
                let notes = repository + "/.git/kanban-deletions"
                try workspace.write(try workspace.read(notes) + "moved\t2026-01-01T09:00:00Z\narchived\t2026-01-01T09:00:00Z\n", to: notes)
                try kanban(["move", "moved", "done"], in: repository, workspace)
                try kanban(["archive", "archived"], in: repository, workspace)
                try workspace.git(["rm", "--quiet", "cards/todo/removed.md"], in: repository)  // no note: no time to give
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Tidy up"], in: repository)
                let deleted = try #require(try note(of: "deleted", in: repository, workspace))
                #expect(try deletedTrailers(in: repository, workspace) == [deleted])
                #expect(try workspace.git(["log", "-1", "--format=%B"], in: repository).trimmingCharacters(in: .newlines) == "Tidy up\n\nDeleted: \(deleted)")
            }
        }

        @Test func kanbansOwnCommitsCarryEachTrailerOnce() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                try kanban(["add", "First", "--commit"], in: ana, workspace)
                try kanban(["add", "Second", "--commit"], in: ana, workspace)
                try kanban(["delete", "first", "--commit"], in: ana, workspace)
                #expect(try deletedTrailers(in: ana, workspace) == [try #require(try note(of: "first", in: ana, workspace))])
                try kanban(["delete", "second"], in: ana, workspace)
                try kanban(["sync"], in: ana, workspace)
                #expect(try deletedTrailers(in: ana, workspace) == [try #require(try note(of: "second", in: ana, workspace))])
            }
        }

        @Test func aTrailerTheMessageHasIsNotAddedAgain() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace, cards: ["Task"])
                try kanban(["delete", "task"], in: repository, workspace)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Delete \"Task\"\n\nDeleted: task 2026-01-01T09:00:00Z"], in: repository)
                #expect(try deletedTrailers(in: repository, workspace) == ["task 2026-01-01T09:00:00Z"])
            }
        }

        /// The editor's case: `prepare-commit-msg` runs before it, `commit-msg` after it; `--no-verify` skips only the
        /// second.
        @Test func anEmptyMessageStillAbortsAndOneWrittenInTheEditorGetsTheTrailers() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace, cards: ["First", "Second"])
                try kanban(["delete", "first"], in: repository, workspace)
                try workspace.git(["add", "--all"], in: repository)
                let head = try workspace.git(["rev-parse", "HEAD"], in: repository)
                let aborted = try workspace.run(["commit"], in: repository, environment: ["GIT_EDITOR": "true"])
                #expect(aborted.status != 0 && aborted.errorOutput.contains("empty commit message"), "\(aborted)")
                // With --verbose the diff follows a scissors line: no text of the message.
                let verbose = try workspace.run(["commit", "--verbose"], in: repository, environment: ["GIT_EDITOR": "true"])
                #expect(verbose.status != 0 && verbose.errorOutput.contains("empty commit message"), "\(verbose)")
                #expect(try workspace.git(["rev-parse", "HEAD"], in: repository) == head)

                let editor = workspace.root + "/editor"
                try workspace.script(editor, "printf 'Tidy up\\n' > \"$1\"")
                try workspace.git(["-c", "core.editor=" + editor, "commit", "--quiet"], in: repository)
                #expect(try deletedTrailers(in: repository, workspace) == [try #require(try note(of: "first", in: repository, workspace))])

                try kanban(["delete", "second"], in: repository, workspace)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "--no-verify", "-m", "Tidy up again"], in: repository)
                #expect(try deletedTrailers(in: repository, workspace) == [try #require(try note(of: "second", in: repository, workspace))])
            }
        }

        /// A rebase replays a commit through `prepare-commit-msg`: one made before the hooks were installed gains its
        /// trailer, one that has it keeps one. A merge's message is left alone.
        @Test func aRebaseKeepsOneTrailerAndAMergeGetsNone() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace, cards: ["First", "Second"])
                try workspace.git(["checkout", "--quiet", "-b", "side"], in: repository)
                for slug in ["first", "second"] {
                    try kanban(["delete", slug], in: repository, workspace)
                    try workspace.git(["add", "--all"], in: repository)
                    // The first as a clone without the hooks commits it.
                    let options = slug == "first" ? ["-c", "core.hooksPath=/nonexistent"] : []
                    try workspace.git(options + ["commit", "--quiet", "-m", "Delete \(slug)"], in: repository)
                }
                #expect(try deletedTrailers(in: repository, workspace, of: "HEAD^") == [])
                try workspace.git(["checkout", "--quiet", "main"], in: repository)
                try workspace.write("Notes\n", to: repository + "/NOTES")
                try workspace.git(["add", "NOTES"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Add notes"], in: repository)
                try workspace.git(["merge", "--quiet", "--no-ff", "--no-edit", "side"], in: repository)
                #expect(try deletedTrailers(in: repository, workspace) == [])

                try workspace.git(["reset", "--quiet", "--hard", "HEAD^"], in: repository)
                try workspace.git(["checkout", "--quiet", "side"], in: repository)
                try workspace.git(["rebase", "--quiet", "main"], in: repository)
                #expect(try deletedTrailers(in: repository, workspace) == [try #require(try note(of: "second", in: repository, workspace))])
                #expect(try deletedTrailers(in: repository, workspace, of: "HEAD^") == [try #require(try note(of: "first", in: repository, workspace))])
            }
        }

        @Test func neverStopsACommit() throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace, cards: ["Task"])
                try kanban(["delete", "task"], in: repository, workspace)
                try workspace.git(["add", "--all"], in: repository)
                // A message file it cannot read, with a delete to add: a warning, and exit 0.
                let unreadable = try workspace.kanban(["commit-msg-hook", "missing-message", "message"], in: repository)
                #expect(unreadable.status == 0, "\(unreadable)")
                #expect(unreadable.stderr.hasPrefix("warning: kanban commit-msg-hook: cannot read the commit message"), "\(unreadable)")
                // Outside any repository.
                let outside = workspace.root + "/outside"
                try workspace.write("Subject\n", to: outside + "/message")
                let lost = try workspace.kanban(["commit-msg-hook", "message"], in: outside)
                #expect(lost.status == 0, "\(lost)")
                #expect(lost.stderr.contains("warning: kanban commit-msg-hook: 'git rev-parse' failed"), "\(lost)")
                #expect(try workspace.read(outside + "/message") == "Subject\n")
            }
        }

        @Test func isHiddenFromHelpButHasItsOwn() throws {
            let listing = try KanbanProcess.run(["--help"])
            #expect(listing.status == 0 && !listing.stdout.contains("commit-msg-hook"), "\(listing)")
            let help = try KanbanProcess.run(["commit-msg-hook", "--help"])
            #expect(help.status == 0, "\(help)")
            #expect(help.stdout.contains("USAGE: kanban commit-msg-hook <message-file> [<source>] [<commit>]"), "\(help)")
        }
    }
}
