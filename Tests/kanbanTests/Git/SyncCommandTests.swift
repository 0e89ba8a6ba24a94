#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

extension GitTests {
    /// `kanban sync`: two clones round trip, and every fault with a clear message, a non-zero exit and nothing lost.
    @Suite struct SyncCommandTests {
        /// The lines of `text` with commit hashes replaced by `HASH`.
        private func masked(_ text: String) -> [String] {
            text.lines.map { $0.replacing(/committed [0-9a-f]{7}/, with: "committed HASH") }
        }

        @Test func roundTripsCardsBetweenTwoClones() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Fix login bug"], in: ana).status == 0)
                let first = try workspace.kanban(["sync"], in: ana)
                #expect(first.status == 0, "\(first)")
                #expect(masked(first.stdout) == ["committed HASH Add \"Fix login bug\" to To Do", "up to date with origin/main",
                                                 "pushed 1 commit to origin/main"])
                #expect(first.stderr.isEmpty)

                let pulled = try workspace.kanban(["sync"], in: ben)
                #expect(pulled.status == 0, "\(pulled)")
                #expect(pulled.stdout.lines == ["pulled 1 commit from origin/main", "nothing to push: origin/main has every commit"])
                let moved = try workspace.kanban(["move", "fix-login-bug", "done", "--commit"], in: ben)
                #expect(masked(moved.stdout) == ["moved fix-login-bug: To Do → Done", "committed HASH Move \"Fix login bug\" from To Do to Done"])
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)

                let back = try workspace.kanban(["sync"], in: ana)
                #expect(back.stdout.lines.first == "pulled 1 commit from origin/main", "\(back)")
                #expect(workspace.exists(ana + "/cards/done/fix-login-bug.md"))
                #expect(!workspace.exists(ana + "/cards/todo/fix-login-bug.md"))
                let log = try workspace.kanban(["log", "fix-login-bug"], in: ana)
                #expect(log.stdout.lines.map { $0.replacing(#/^[0-9a-f]{7} \d{4}-\d\d-\d\d /#, with: "") } == [
                    "Move \"Fix login bug\" from To Do to Done (Ben Ode)",
                    "Add \"Fix login bug\" to To Do (Ana Lee)",
                ], "\(log)")
            }
        }

        @Test func keepsACardMovedToTwoColumnsInOneOnBothMachines() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                #expect(try workspace.kanban(["add", "Shared card", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                #expect(try workspace.kanban(["move", "shared-card", "in-progress", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["move", "shared-card", "done", "--commit"], in: ben).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                let merged = try workspace.kanban(["sync"], in: ben)
                #expect(merged.status == 0, "\(merged)")
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                // Both moved it in the same second or Ben later: Done wins either way (later, or further along).
                for clone in [ana, ben] {
                    #expect(workspace.exists(clone + "/cards/done/shared-card.md"), "\(clone)")
                    #expect(!workspace.exists(clone + "/cards/in-progress/shared-card.md"), "\(clone)")
                    #expect(!workspace.exists(clone + "/cards/todo/shared-card.md"), "\(clone)")
                    let doctor = try workspace.kanban(["doctor"], in: clone)
                    #expect(!doctor.stdout.contains("duplicate-slug") && !doctor.stdout.contains("conflict"), "\(doctor)")
                }
            }
        }

        @Test func commitsLocallyAndSaysSoWhenThereIsNoRemote() throws {
            try withGitWorkspace { workspace in
                let repository = workspace.root + "/solo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                #expect(try workspace.kanban(["init", "."], in: repository).status == 0)
                let result = try workspace.kanban(["sync"], in: repository)
                #expect(result.status == 1)
                #expect(masked(result.stdout) == ["committed HASH Edit board settings"])
                #expect(result.stderr.contains("error: the repository has no remote to sync with"))
                #expect(result.stderr.contains("git remote add origin URL"))
                #expect(result.stderr.contains("Your board changes are committed locally"))
                #expect(try workspace.subjects(in: repository) == ["Edit board settings"])
            }
        }

        @Test func explainsABoardOutsideGit() throws {
            try withGitWorkspace { workspace in
                let plain = workspace.root + "/plain"
                #expect(try workspace.kanban(["init", plain], in: workspace.root).status == 0)
                let result = try workspace.kanban(["sync"], in: plain)
                #expect(result.status == 1)
                #expect(result.stderr.lines.first == "error: the board is not in a git repository")
                #expect(result.stdout.isEmpty)
            }
        }

        @Test func explainsAMissingIdentity() throws {
            try withGitWorkspace(identity: false) { workspace in
                let repository = workspace.root + "/repo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                #expect(try workspace.kanban(["init", "."], in: repository).status == 0)
                let result = try workspace.kanban(["add", "Write docs", "--commit"], in: repository)
                #expect(result.status == 1)
                #expect(result.stdout.lines.first == "cards/todo/write-docs.md")
                #expect(result.stderr.contains("error: git does not know who you are: user.name and user.email are not set"))
                #expect(result.stderr.contains("git config --global user.name \"Your Name\""))
                #expect(result.stderr.contains("The change itself was made"))
                #expect(workspace.exists(repository + "/cards/todo/write-docs.md"))
                let sync = try workspace.kanban(["sync"], in: repository)
                #expect(sync.status == 1)
                #expect(sync.stderr.contains("git does not know who you are"))
            }
        }

        @Test func showsAFailingPreCommitHook() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try workspace.script(ana + "/.git/hooks/pre-commit", "echo 'hook: no cards on Fridays' >&2\nexit 1")
                #expect(try workspace.kanban(["add", "Friday card"], in: ana).status == 0)
                let result = try workspace.kanban(["sync"], in: ana)
                #expect(result.status == 1)
                #expect(result.stderr.contains("error: the pre-commit hook refused the commit; nothing was committed"))
                #expect(result.stderr.contains("  | hook: no cards on Fridays"))
                #expect(try workspace.subjects(in: ana) == ["Start the board"])
                let status = try workspace.kanban(["status", "--json"], in: ana)
                #expect(status.stdout.contains("\"kind\": \"added\""))
            }
        }

        @Test func reportsAHeldIndexLockAndLeavesIt() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                // A live git holds its lock open.
                try workspace.write("", to: ana + "/.git/index.lock")
                let holder = open(ana + "/.git/index.lock", O_RDONLY)
                #expect(holder >= 0)
                defer { close(holder) }
                let result = try workspace.kanban(["add", "Locked out", "--commit"], in: ana)
                #expect(result.status == 1)
                #expect(result.stderr.contains("error: another git process holds"))
                #expect(result.stderr.contains("index.lock"))
                #expect(workspace.exists(ana + "/.git/index.lock"))
                #expect(workspace.exists(ana + "/cards/todo/locked-out.md"))
            }
        }

        @Test func removesALockAKilledGitLeftBehind() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                // A git killed in the middle of a commit leaves the index's lock and the branch's, open by no one.
                for lock in ["/.git/index.lock", "/.git/refs/heads/main.lock"] {
                    try workspace.write("", to: ana + lock)
                    var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
                    #expect(utimensat(AT_FDCWD, ana + lock, &times, 0) == 0)
                }
                let result = try workspace.kanban(["add", "Not locked out", "--commit"], in: ana)
                #expect(result.status == 0, "\(result)")
                #expect(!workspace.exists(ana + "/.git/index.lock") && !workspace.exists(ana + "/.git/refs/heads/main.lock"))
                #expect(try workspace.subjects(in: ana).first == "Add \"Not locked out\" to To Do")
            }
        }

        @Test func givesUpOnASilentRemoteAfterTheTimeout() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try workspace.script(workspace.root + "/silent-ssh", "exec sleep 60")
                try workspace.git(["remote", "set-url", "origin", "ssh://git@example.invalid/team.git"], in: ana)
                #expect(try workspace.kanban(["add", "Offline work"], in: ana).status == 0)
                let clock = ContinuousClock()
                let start = clock.now
                let result = try workspace.kanban(["sync"], in: ana, environment: [
                    "KANBAN_GIT_TIMEOUT": "2", "GIT_SSH_COMMAND": workspace.root + "/silent-ssh",
                ])
                #expect(clock.now - start < .seconds(20))
                #expect(result.status == 1)
                // Issue 20 #11: the sync's own commit was a change, so not "nothing was changed".
                #expect(result.stderr.contains("error: the remote 'origin' did not answer within 2 s; nothing was pulled or pushed"), "\(result)")
                #expect(!result.stderr.contains("nothing was changed"), "\(result)")
                #expect(result.stderr.contains("Your board changes are committed locally"))
                #expect(try workspace.subjects(in: ana).first == "Add \"Offline work\" to To Do")
            }
        }

        @Test func reportsAPushTheRemoteRefuses() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try workspace.script(workspace.root + "/remote.git/hooks/pre-receive", "echo 'main is frozen for the release' >&2\nexit 1")
                #expect(try workspace.kanban(["add", "Too late"], in: ana).status == 0)
                let result = try workspace.kanban(["sync"], in: ana)
                #expect(result.status == 1)
                #expect(result.stderr.contains("error: the remote refused the push: pre-receive hook declined"))
                #expect(result.stderr.contains("  | remote: main is frozen for the release"))
                #expect(try workspace.subjects(in: ana).first == "Add \"Too late\" to To Do")
            }
        }

        @Test func keepsBothTextsWhenBothChangedTheSameLinesAndNamesTheCard() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                #expect(try workspace.kanban(["add", "Shared", "--body", "Steps:\n1. Open\n2. Close\n"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                #expect(try workspace.kanban(["set", "shared", "--body", "Steps:\n1. Open the app\n2. Close\n"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["set", "shared", "--body", "Steps:\n1. Open the window\n2. Close\n"], in: ben).status == 0)
                try workspace.write("draft\n", to: ben + "/notes.txt")

                let result = try workspace.kanban(["sync"], in: ben)
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.contains("warning: shared: both sides changed the same lines; the other side's text is kept at the end of the card"),
                        "\(result)")
                let card = try workspace.read(ben + "/cards/todo/shared.md")
                #expect(card.contains("1. Open the app\n") && card.contains("1. Open the window\n"), "\(card)")
                #expect(card.contains("<!-- kanban: conflict start -->") && !card.contains("<<<<<<<"))
                #expect(try workspace.read(ben + "/notes.txt") == "draft\n")
                #expect(try workspace.git(["status", "--porcelain"], in: ben) == "?? notes.txt")

                // Both clones end with the same card, and status and doctor name it until someone tidies it.
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.read(ana + "/cards/todo/shared.md") == card)
                let status = try workspace.kanban(["status"], in: ana)
                #expect(status.stdout.contains("Cards a merge left to tidy by hand:\n  cards/todo/shared.md:"), "\(status)")
                let json = try workspace.kanban(["status", "--json"], in: ana)
                #expect(json.stdout.contains("\"code\": \"kept-text\""), "\(json)")
                let doctor = try workspace.kanban(["doctor"], in: ana)
                #expect(doctor.status == 0)
                #expect(doctor.stdout.contains("cards/todo/shared.md:"))
                #expect(doctor.stdout.contains("warning: a merge kept the other side's text"))
            }
        }

        @Test func stopsOnAConflictOutsideTheBoardWithEverythingAsItWas() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                for (clone, text) in [(ana, "ana's plan\n"), (ben, "ben's plan\n")] {
                    try workspace.write(text, to: clone + "/plan.txt")
                    try workspace.git(["add", "plan.txt"], in: clone)
                    try workspace.git(["commit", "--quiet", "-m", "Plan"], in: clone)
                }
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Mine"], in: ben).status == 0)
                let result = try workspace.kanban(["sync"], in: ben)
                #expect(result.status == 2, "\(result)")
                #expect(result.stderr.contains("error: your changes and the upstream's conflict in files outside the board: plan.txt; nothing was pulled or pushed"),
                        "\(result)")
                // Ben's card change is committed (sync commits first), and nothing else moved.
                #expect(try workspace.subjects(in: ben, count: 2) == ["Add \"Mine\" to To Do", "Plan"])
                #expect(try workspace.read(ben + "/plan.txt") == "ben's plan\n")
                #expect(try workspace.git(["status", "--porcelain"], in: ben) == "")
                #expect(!workspace.exists(ben + "/.git/MERGE_HEAD"))
            }
        }

        /// Untracked files where the incoming commits add files stop the pull; `git stash` would not move them, so the
        /// advice names them and gives commands that do, with or without a local commit to merge.
        @Test(arguments: [false, true]) func namesUntrackedFilesInTheWayAndAdvisesWhatWorks(withLocalCommit: Bool) throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                try workspace.write("ana's notes\n", to: ana + "/notes/plan it.txt")
                try workspace.git(["add", "notes"], in: ana)
                try workspace.git(["commit", "--quiet", "-m", "Notes"], in: ana)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                try workspace.write("ben's own notes\n", to: ben + "/notes/plan it.txt")
                if withLocalCommit {
                    #expect(try workspace.kanban(["add", "Mine", "--commit"], in: ben).status == 0)
                }
                let stopped = try workspace.kanban(["sync"], in: ben)
                #expect(stopped.status == 1, "\(stopped)")
                #expect(stopped.stderr.contains("error: an untracked file is in the way of files the incoming commits add: notes/plan it.txt; nothing was changed"),
                        "\(stopped)")
                #expect(!stopped.stderr.contains("git stash"), "\(stopped)")
                let advice = stopped.stderr.lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("mv ") }
                #expect(advice == ["mv -n '\(ben)/notes/plan it.txt' '\(ben)/notes/plan it.txt.mine'"], "\(stopped)")
                #expect(try workspace.read(ben + "/notes/plan it.txt") == "ben's own notes\n")

                let shell = Process()
                shell.executableURL = URL(fileURLWithPath: "/bin/sh")
                shell.arguments = ["-c", advice.joined(separator: "\n")]
                try shell.run()
                shell.waitUntilExit()
                #expect(shell.terminationStatus == 0)
                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                // Issue 20 #11: one commit is "it", not "them".
                #expect(synced.stdout.lines.first == (withLocalCommit ? "pulled 1 commit from origin/main and merged it with your commit"
                                                                      : "pulled 1 commit from origin/main"), "\(synced)")
                #expect(try workspace.read(ben + "/notes/plan it.txt") == "ana's notes\n")
                #expect(try workspace.read(ben + "/notes/plan it.txt.mine") == "ben's own notes\n")
            }
        }

        /// A plain `git pull` (no merge driver) stopped on a card both changed: `status` says what `sync` does, and
        /// `sync` merges the card by the rules and finishes the merge.
        @Test func finishesAPlainGitMergeThatStoppedOnACard() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Shared card", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                #expect(try workspace.kanban(["set", "shared-card", "--body", "ana's text", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "From Ana", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["set", "shared-card", "--body", "ben's text", "--commit"], in: ben).status == 0)
                #expect(try workspace.run(["pull", "--no-rebase", "--quiet"], in: ben).status != 0)
                #expect(workspace.exists(ben + "/.git/MERGE_HEAD"))

                let status = try workspace.kanban(["status"], in: ben)
                #expect(status.status == 0, "\(status)")
                #expect(status.stdout.contains("A git merge is in progress: 'kanban sync' merges the cards git stopped on, card by card, and finishes the merge (or give it up with 'git merge --abort')."),
                        "\(status)")
                #expect(status.stdout.lines.contains("Cards git could not merge:"), "\(status)")
                #expect(!status.stdout.contains("Uncommitted board changes:"), "\(status)")
                #expect(!status.stdout.contains("Commit them with"), "\(status)")
                let lines = status.stdout.lines
                for (index, line) in lines.enumerated() where line.hasSuffix(":") && !line.hasPrefix(" ") {
                    #expect(index + 1 < lines.count && lines[index + 1].hasPrefix("  "), "an empty heading: \(line)\n\(status)")
                }

                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                #expect(synced.stdout.lines.first == "finished the git merge that stopped on 1 card, merging card by card", "\(synced)")
                #expect(synced.stderr.contains("warning: shared-card: both sides changed the same lines"), "\(synced)")
                #expect(!workspace.exists(ben + "/.git/MERGE_HEAD"))
                #expect(try workspace.git(["status", "--porcelain"], in: ben) == "")
                let card = try workspace.read(ben + "/cards/todo/shared-card.md")
                #expect(card.contains("ben's text") && card.contains("ana's text") && !card.contains("<<<<<<<"), "\(card)")
                #expect(workspace.exists(ben + "/cards/todo/from-ana.md"))
                #expect(try workspace.git(["rev-list", "--count", "--merges", "HEAD"], in: ben) == "1")
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.read(ana + "/cards/todo/shared-card.md") == card)
            }
        }

        /// Two different cards added under one name on two clones stop a plain `git pull` (add/add); `sync` keeps both.
        @Test func finishesAPlainGitMergeThatStoppedOnTwoCardsAddedUnderOneName() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Write docs", "--body", "Ana's plan.", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Write docs", "--body", "Ben's plan.", "--commit"], in: ben).status == 0)
                #expect(try workspace.run(["pull", "--no-rebase", "--quiet"], in: ben).status != 0)
                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                #expect(!workspace.exists(ben + "/.git/MERGE_HEAD"))
                let files = try workspace.git(["ls-files", "cards/todo"], in: ben).split(separator: "\n").map(String.init)
                #expect(files.count == 2, "\(files)\n\(synced)")
                let texts = try files.map { try workspace.read(ben + "/" + $0) }
                #expect(texts.contains { $0.contains("Ana's plan.") } && texts.contains { $0.contains("Ben's plan.") }, "\(texts)")
                #expect(!texts.contains { $0.contains("<<<<<<<") })
                #expect(try workspace.git(["status", "--porcelain"], in: ben) == "")
            }
        }

        /// When git also stopped on files outside the board, `status` and `sync` say to resolve those; then `sync`
        /// finishes the merge.
        @Test func saysWhatToDoWhenAPlainGitMergeStoppedOutsideTheBoardToo() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Shared card", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                for (clone, name) in [(ana, "ana"), (ben, "ben")] {
                    try workspace.write("\(name)'s plan\n", to: clone + "/plan.txt")
                    try workspace.git(["add", "plan.txt"], in: clone)
                    try workspace.git(["commit", "--quiet", "-m", "Plan"], in: clone)
                    #expect(try workspace.kanban(["set", "shared-card", "--body", "\(name)'s text", "--commit"], in: clone).status == 0)
                }
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.run(["pull", "--no-rebase", "--quiet"], in: ben).status != 0)

                let status = try workspace.kanban(["status"], in: ben)
                #expect(status.stdout.contains("A git merge is in progress: resolve the files outside the board and 'git add' them; then 'kanban sync' merges the cards card by card and finishes the merge"),
                        "\(status)")
                #expect(status.stdout.contains("Unresolved conflicts outside the board (relative to the repository):\n  plan.txt\n"), "\(status)")
                let stopped = try workspace.kanban(["sync"], in: ben)
                #expect(stopped.status == 1, "\(stopped)")
                #expect(stopped.stderr.contains("error: a git merge stopped on conflicts in files outside the board: plan.txt"), "\(stopped)")
                #expect(stopped.stderr.contains("resolve them and 'git add' them, then run 'kanban sync' again"), "\(stopped)")
                #expect(workspace.exists(ben + "/.git/MERGE_HEAD"))

                try workspace.write("both plans\n", to: ben + "/plan.txt")
                try workspace.git(["add", "plan.txt"], in: ben)
                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                #expect(!workspace.exists(ben + "/.git/MERGE_HEAD"))
                #expect(try workspace.git(["show", "HEAD:plan.txt"], in: ben) == "both plans")
                let card = try workspace.read(ben + "/cards/todo/shared-card.md")
                #expect(card.contains("ben's text") && card.contains("ana's text") && !card.contains("<<<<<<<"), "\(card)")
            }
        }

        @Test func leavesUnrelatedWorkOutsideTheBoardAlone() throws {
            try withGitWorkspace { workspace in
                let remote = try workspace.makeRemote()
                let project = try workspace.makeClone(of: remote, named: "project", author: "Ana Lee")
                try workspace.write("let app = 1\n", to: project + "/src/app.swift")
                #expect(try workspace.kanban(["init", "planning"], in: project).status == 0)
                try workspace.git(["add", "--all"], in: project)
                try workspace.git(["commit", "--quiet", "-m", "Start"], in: project)
                try workspace.git(["push", "--quiet", "-u", "origin", "main"], in: project)
                // Work in progress outside the board: staged, unstaged, untracked.
                try workspace.write("let app = 2\n", to: project + "/src/app.swift")
                try workspace.git(["add", "src/app.swift"], in: project)
                try workspace.write("let helper = 1\n", to: project + "/src/helper.swift")
                #expect(try workspace.kanban(["add", "Plan the release"], in: project + "/planning").status == 0)

                let result = try workspace.kanban(["sync"], in: project + "/planning")
                #expect(result.status == 0, "\(result)")
                #expect(try workspace.git(["show", "--format=", "--name-only", "origin/main"], in: project)
                            == "planning/cards/todo/plan-the-release.md")
                #expect(try workspace.run(["status", "--porcelain"], in: project).output.lines == ["M  src/app.swift", "?? src/helper.swift"])
            }
        }

        @Test func addsACardToAColumnAFreshCloneHasNoDirectoryFor() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["column", "add", "review", "Review", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                #expect(!workspace.exists(ben + "/cards/review"))
                let added = try workspace.kanban(["add", "Review the copy", "--column", "review", "--commit"], in: ben)
                #expect(added.status == 0, "\(added)")
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(workspace.exists(ana + "/cards/review/review-the-copy.md"))
            }
        }

        @Test func refusesToSyncADetachedHeadOrDuringARebase() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try workspace.git(["checkout", "--quiet", "--detach"], in: ana)
                let detached = try workspace.kanban(["sync"], in: ana)
                #expect(detached.status == 1)
                #expect(detached.stderr.contains("error: HEAD is detached: not on any branch"))
                try workspace.git(["checkout", "--quiet", "main"], in: ana)

                try workspace.write("one\n", to: ana + "/notes.txt")
                try workspace.git(["add", "notes.txt"], in: ana)
                try workspace.git(["commit", "--quiet", "-m", "notes one"], in: ana)
                try workspace.git(["checkout", "--quiet", "-b", "side", "HEAD~1"], in: ana)
                try workspace.write("two\n", to: ana + "/notes.txt")
                try workspace.git(["add", "notes.txt"], in: ana)
                try workspace.git(["commit", "--quiet", "-m", "notes two"], in: ana)
                #expect(try workspace.run(["rebase", "main"], in: ana).status != 0)
                let during = try workspace.kanban(["sync"], in: ana)
                #expect(during.status == 1)
                #expect(during.stderr.contains("error: a git rebase is in progress in this repository"))
                #expect(during.stderr.contains("git rebase --abort"))
                #expect(workspace.exists(ana + "/.git/rebase-merge"))
                let status = try workspace.kanban(["status"], in: ana)
                #expect(status.stdout.contains("A git rebase is in progress"))
            }
        }

        @Test func explainsABranchWithoutUpstream() throws {
            try withGitWorkspace { workspace in
                let remote = try workspace.makeRemote()
                let repository = workspace.root + "/repo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                try workspace.git(["remote", "add", "origin", remote], in: repository)
                #expect(try workspace.kanban(["init", "."], in: repository).status == 0)
                let result = try workspace.kanban(["sync", "--no-push"], in: repository)
                #expect(result.status == 1)
                #expect(result.stderr.contains("error: branch 'main' has no upstream branch"))
                #expect(result.stderr.contains("git push -u origin main"))
                try workspace.git(["push", "--quiet", "-u", "origin", "main"], in: repository)
                #expect(try workspace.kanban(["sync"], in: repository).status == 0)
            }
        }
    }
}
