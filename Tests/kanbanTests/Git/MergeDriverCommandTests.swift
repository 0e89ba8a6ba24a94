import Foundation
import Testing

extension GitTests {
    /// `kanban git-setup` and `kanban merge-driver`, with real branches merged and rebased by git itself.
    @Suite struct MergeDriverCommandTests {
        /// A repository with a board (labels bug, ui, urgent), the merge driver set up, and card `fix-login-bug`
        /// (labels bug, ui) in To Do, all committed on `main`.
        private func makeRepository(_ workspace: GitWorkspace) throws -> String {
            let repository = workspace.root + "/repo"
            try workspace.git(["init", "--quiet", repository], in: workspace.root)
            for arguments in [["init", ".", "--title", "Team"], ["git-setup"], ["label", "add", "bug"], ["label", "add", "ui"],
                              ["label", "add", "urgent"],
                              ["add", "Fix login bug", "--label", "bug", "--label", "ui", "--body", Self.body("Steps:\n1. Open\n2. Log in\n3. See the error\n")]] {
                let result = try workspace.kanban(arguments, in: repository)
                try #require(result.status == 0, "\(arguments): \(result)")
            }
            try workspace.git(["add", "--all"], in: repository)
            try workspace.git(["commit", "--quiet", "-m", "Start"], in: repository)
            return repository
        }

        /// `steps` followed by a few paragraphs nobody changes, so that git recognises a moved card as a rename.
        static func body(_ steps: String) -> String {
            steps + "\n## Notes\n\nReported by support on Monday.\nHappens on Safari and Firefox.\nNot on the mobile app.\n"
                + "\n## Links\n\n- Ticket 4521\n- Design review notes\n"
        }

        /// On branch `name` from `main`: runs each kanban command, then commits.
        private func branch(_ name: String, in repository: String, _ workspace: GitWorkspace, _ commands: [[String]]) throws {
            try workspace.git(["checkout", "--quiet", "-b", name, "main"], in: repository)
            for arguments in commands {
                let result = try workspace.kanban(arguments, in: repository)
                try #require(result.status == 0, "\(arguments): \(result)")
            }
            try workspace.git(["add", "--all"], in: repository)
            try workspace.git(["commit", "--quiet", "-m", name], in: repository)
        }

        private func field(_ key: String, in text: String) -> String? {
            text.lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }

        @Test func setUpWritesTheAttributesAndTheDriverOnce() throws {
            try withGitWorkspace { workspace in
                let repository = workspace.root + "/repo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                #expect(try workspace.kanban(["init", "."], in: repository).status == 0)
                try workspace.write("*.png binary\n", to: repository + "/.gitattributes")

                let first = try workspace.kanban(["git-setup"], in: repository)
                #expect(first.status == 0, "\(first)")
                #expect(first.stdout.lines == ["added to .gitattributes: cards/**/*.md merge=kanban, archive/*.md merge=kanban",
                                               "set merge.kanban.driver = kanban merge-driver %O %A %B %P",
                                               "set merge.directoryRenames = false",
                                               "installed the prepare-commit-msg hook: .git/hooks/prepare-commit-msg",
                                               "installed the commit-msg hook: .git/hooks/commit-msg"])
                #expect(try workspace.read(repository + "/.gitattributes") == """
                    *.png binary
                    # Cards merge key by key: kanban git-setup
                    cards/**/*.md merge=kanban
                    archive/*.md merge=kanban

                    """)
                #expect(try workspace.git(["config", "--local", "merge.kanban.driver"], in: repository) == "kanban merge-driver %O %A %B %P")
                #expect(try workspace.git(["config", "--local", "merge.directoryRenames"], in: repository) == "false")
                #expect(try workspace.git(["check-attr", "merge", "--", "cards/todo/x.md", "archive/2026-01-01-x.md", "board.md"], in: repository)
                            == "cards/todo/x.md: merge: kanban\narchive/2026-01-01-x.md: merge: kanban\nboard.md: merge: unspecified")

                let again = try workspace.kanban(["git-setup", "--commit"], in: repository)
                #expect(again.stdout.lines == [".gitattributes already sends cards to the kanban merge driver",
                                               "merge.kanban.driver is already kanban merge-driver %O %A %B %P",
                                               "merge.directoryRenames is already false",
                                               "the prepare-commit-msg hook is already kanban's: .git/hooks/prepare-commit-msg",
                                               "the commit-msg hook is already kanban's: .git/hooks/commit-msg"])
                #expect(try workspace.run(["rev-parse", "--verify", "HEAD"], in: repository).status != 0)
            }
        }

        @Test func commitsTheAttributesWhenAsked() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                let result = try workspace.kanban(["git-setup", "--commit", "--driver", "/opt/kanban/bin/kanban"], in: ana)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.lines.last?.hasSuffix(" Merge cards key by key with kanban merge-driver") == true)
                #expect(try workspace.git(["show", "--format=", "--name-only", "HEAD"], in: ana) == ".gitattributes")
                #expect(try workspace.git(["config", "merge.kanban.driver"], in: ana) == "/opt/kanban/bin/kanban merge-driver %O %A %B %P")
            }
        }

        @Test(arguments: ["merge", "rebase"])
        func mergesConcurrentEditsOfOneCardKeyByKey(command: String) throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try branch("ana", in: repository, workspace, [
                    ["set", "fix-login-bug", "--add-label", "urgent", "--field", "due=2026-12-01"],
                    ["set", "fix-login-bug", "--body", Self.body("Steps:\n1. Open the app\n2. Log in\n3. See the error\n")],
                ])
                try branch("ben", in: repository, workspace, [
                    ["move", "fix-login-bug", "in-progress"],
                    ["set", "fix-login-bug", "--remove-label", "ui", "--body", Self.body("Steps:\n1. Open\n2. Log in\n3. See the error message\n")],
                ])
                let arguments = command == "merge" ? ["merge", "--no-edit", "ana"] : ["rebase", "ana"]
                let merged = try workspace.run(arguments, in: repository)
                #expect(merged.status == 0, "\(merged)")
                let card = try workspace.read(repository + "/cards/in-progress/fix-login-bug.md")
                #expect(!workspace.exists(repository + "/cards/todo/fix-login-bug.md"))
                #expect(field("column", in: card) == "in-progress")
                #expect(field("labels", in: card) == "[bug, urgent]")
                #expect(field("due", in: card) == "2026-12-01")
                #expect(card.hasSuffix(Self.body("Steps:\n1. Open the app\n2. Log in\n3. See the error message\n")), "\(card)")
                #expect(!card.contains("<<<<<<<"))
            }
        }

        @Test(arguments: ["merge", "rebase"])
        func keepsTheOtherSidesLinesWhenBothChangedTheSameLines(command: String) throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try branch("ana", in: repository, workspace, [
                    ["set", "fix-login-bug", "--add-label", "urgent", "--body", Self.body("Steps:\n1. Open the app\n2. Log in\n3. See the error\n")],
                ])
                try branch("ben", in: repository, workspace, [
                    ["set", "fix-login-bug", "--body", Self.body("Steps:\n1. Open the window\n2. Log in\n3. See the error\n")],
                ])
                let arguments = command == "merge" ? ["merge", "--no-edit", "ana"] : ["rebase", "ana"]
                let merged = try workspace.run(arguments, in: repository)
                #expect(merged.status == 0, "\(merged)")
                #expect(merged.errorOutput.contains("kanban merge-driver: cards/todo/fix-login-bug.md: both sides changed the same lines"), "\(merged)")
                let card = try workspace.read(repository + "/cards/todo/fix-login-bug.md")
                #expect(field("labels", in: card) == "[bug, ui, urgent]")
                #expect(card.contains("1. Open the app\n") && card.contains("1. Open the window\n"), "\(card)")
                #expect(!card.contains("<<<<<<<"))
                let doctor = try workspace.kanban(["doctor"], in: repository)
                #expect(doctor.status == 0)
                #expect(doctor.stdout.contains("cards/todo/fix-login-bug.md:"))
                #expect(doctor.stdout.contains("warning: a merge kept the other side's text"))
            }
        }

        @Test func gitAloneLeavesACardMovedToTwoColumnsAsARenameConflict() throws {
            // What plain git does with one card moved to two columns: a path-level rename/rename conflict, both
            // files in the working tree. `kanban sync` resolves it (see SyncCommandTests); plain git merges do not.
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try branch("ana", in: repository, workspace, [["move", "fix-login-bug", "in-progress"]])
                try branch("ben", in: repository, workspace, [["move", "fix-login-bug", "done"]])
                let merged = try workspace.run(["merge", "--no-edit", "ana"], in: repository)
                #expect(merged.status != 0)
                #expect(merged.output.contains("CONFLICT (rename/rename)"), "\(merged)")
                #expect(workspace.exists(repository + "/cards/in-progress/fix-login-bug.md"))
                #expect(workspace.exists(repository + "/cards/done/fix-login-bug.md"))
                // The driver merged the content the same way into both: Done wins the tie (further along the board).
                let left = try workspace.read(repository + "/cards/in-progress/fix-login-bug.md")
                #expect(left == (try workspace.read(repository + "/cards/done/fix-login-bug.md")))
                #expect(field("column", in: left) == "done" || field("column", in: left) == "in-progress")
                try workspace.git(["merge", "--abort"], in: repository)
            }
        }

        /// One side deletes a card and adds another that looks like it (as a card unarchived on one side and moved on
        /// another can look to git); the other side labels the first card. git takes the new card for the old one
        /// renamed and hands both to the driver, which must not put the label on the wrong card (found by the converge
        /// harness, 20 clones x 1,000 ops, seed 2: a label added to an archived card landed on another card in a
        /// plain `git pull --rebase`). The driver tells them apart by `created`, and for two cards made in the same
        /// second by the file the history holds the common version under (20 x 1,000 seeds 8 and 9: a line and a
        /// label written into one of the board's first cards landed on another).
        @Test(arguments: ["merge", "rebase"], [false, true])
        func stopsRatherThanMergeTwoCardsGitTookForOne(command: String, sameSecond: Bool) throws {
            try withGitWorkspace { workspace in
                let repository = try makeRepository(workspace)
                try workspace.git(["checkout", "--quiet", "-b", "ana", "main"], in: repository)
                let original = try workspace.read(repository + "/cards/todo/fix-login-bug.md")
                #expect(try workspace.kanban(["delete", "fix-login-bug"], in: repository).status == 0)
                let created = try #require(field("created", in: original))
                var lookalike = original.replacingOccurrences(of: "title: Fix login bug", with: "title: Fix logout bug")
                if !sameSecond {
                    lookalike = lookalike.replacingOccurrences(of: "created: \(created)", with: "created: 2001-02-03T04:05:06Z")
                }
                try workspace.write(lookalike, to: repository + "/cards/todo/fix-logout-bug.md")
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "ana"], in: repository)
                try branch("ben", in: repository, workspace, [["set", "fix-login-bug", "--add-label", "urgent"]])

                let arguments = command == "merge" ? ["merge", "--no-edit", "ana"] : ["rebase", "ana"]
                let merged = try workspace.run(arguments, in: repository)
                #expect(merged.status != 0, "\(merged)")
                #expect(merged.errorOutput.contains("kanban merge-driver: cards/todo/fix-logout-bug.md: git paired two different cards"), "\(merged)")
                // The file is left as the driver found it: one side's own version of it, never a mix of two cards.
                let left = try workspace.read(repository + "/cards/todo/fix-logout-bug.md")
                let isLookalike = field("title", in: left) == "Fix logout bug"
                #expect(field("created", in: left) == (isLookalike && !sameSecond ? "2001-02-03T04:05:06Z" : created))
                #expect(field("labels", in: left) == (isLookalike ? "[bug, ui]" : "[bug, ui, urgent]"), "\(left)")
                #expect(field("title", in: left) == (isLookalike ? "Fix logout bug" : "Fix login bug"), "\(left)")
                try workspace.git([command, "--abort"], in: repository)
            }
        }

        @Test func mergesFilesGivenDirectly() throws {
            try withGitWorkspace { workspace in
                let card = { (labels: String, modified: String) in
                    "---\ntitle: Fix login bug\ncolumn: todo\nposition: a1\ncreated: 2026-01-01T09:00:00Z\nmodified: \(modified)\nlabels: \(labels)\n---\n\nBody\n"
                }
                try workspace.write(card("[bug]", "2026-01-02T09:00:00Z"), to: workspace.root + "/base")
                try workspace.write(card("[bug, ui]", "2026-01-03T09:00:00Z"), to: workspace.root + "/ours")
                try workspace.write(card("[]", "2026-01-04T09:00:00Z"), to: workspace.root + "/theirs")
                let result = try workspace.kanban(["merge-driver", "base", "ours", "theirs", "cards/todo/fix-login-bug.md"], in: workspace.root)
                #expect(result.status == 0, "\(result)")
                #expect(try workspace.read(workspace.root + "/ours") == card("[ui]", "2026-01-04T09:00:00Z"))

                let missing = try workspace.kanban(["merge-driver", "base", "nowhere", "theirs"], in: workspace.root)
                #expect(missing.status == 1)
                #expect(missing.stderr.contains("cannot read 'nowhere'"))
            }
        }
    }
}
