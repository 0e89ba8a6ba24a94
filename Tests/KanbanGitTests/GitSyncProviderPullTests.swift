#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// Pull and push between clones of a bare repository, and each way they can fail without losing anything.
    @Suite struct GitSyncProviderPullTests {
        /// Commits `change` with the message that describes it.
        @discardableResult
        private func commit(_ change: BoardChange, _ sync: GitSyncProvider) throws -> CommitResult? {
            try sync.commit(change, message: try #require(CommitMessage(describing: [change], board: try sync.store.loadBoard())))
        }

        @Test func fastForwardsToTheUpstream() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSync = sandbox.provider(ana)
                try commit(try ana.createCard(title: "Fix login bug", in: "doing"), anaSync)
                #expect(try anaSync.push().pushed == 1)
                let pulled = try sandbox.provider(ben).pull()
                #expect(pulled.kind == .fastForward)
                #expect(pulled.incoming == 1)
                #expect(try ben.load().cards(inColumn: "doing").map(\.title) == ["Fix login bug"])
                #expect(try sandbox.provider(ben).pull().kind == .upToDate)
            }
        }

        @Test func mergesLocalCommitsKeepingOtherWorkAsItWas() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                try commit(try ana.createCard(title: "From Ana"), anaSync)
                _ = try anaSync.push()
                try commit(try ben.createCard(title: "From Ben"), benSync)
                // Ben's own work outside the board: a staged file, an unstaged change to a tracked file, an untracked file.
                try sandbox.write("staged\n", to: ben.directory + "/staged.txt")
                try sandbox.git(["add", "staged.txt"], in: ben.directory)
                try sandbox.write("changed\n", to: ben.directory + "/.gitignore")
                try sandbox.git(["add", ".gitignore"], in: ben.directory)
                try sandbox.git(["commit", "--quiet", "-m", "ignore", "--", ".gitignore"], in: ben.directory)
                try sandbox.write("changed again\n", to: ben.directory + "/.gitignore")
                try sandbox.write("untracked\n", to: ben.directory + "/scratch.txt")

                let pulled = try benSync.pull()
                #expect(pulled.kind == .merged)
                #expect(pulled.incoming == 1)
                #expect(pulled.replayed == 2)
                #expect(try sandbox.run(["status", "--porcelain"], in: ben.directory).output.split(separator: "\n").sorted()
                            == [" M .gitignore", "?? scratch.txt", "A  staged.txt"])
                #expect(Set(try ben.load().cards.map(\.slug)) == ["from-ana", "from-ben"])
                #expect(try benSync.push().pushed == 3)
                #expect(try sandbox.git(["log", "--format=%s", "--first-parent", "origin/main"], in: ben.directory)
                            == "Merge origin/main into main\nignore\nAdd \"From Ben\" to To Do\nStart")
                #expect(try sandbox.git(["log", "--format=%s", "-1", "origin/main^2"], in: ben.directory) == "Add \"From Ana\" to To Do")
            }
        }

        @Test func keepsBothTextsOfLinesBothSidesChangedAndSaysWhichCard() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard(clockGap: 600)
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                try commit(try ana.createCard(title: "Shared", in: "todo", body: "Steps:\n1. Open\n2. Close\n"), anaSync)
                _ = try anaSync.push()
                _ = try benSync.pull()
                try commit(try ana.updateCard("shared", CardUpdate(body: "Steps:\n1. Open the app\n2. Close\n")), anaSync)
                _ = try anaSync.push()
                // Ben's clock is ten minutes ahead: his edit is the later one.
                try commit(try ben.updateCard("shared", CardUpdate(body: "Steps:\n1. Open the window\n2. Close\n")), benSync)
                try sandbox.write("mine\n", to: ben.directory + "/untracked.txt")

                let pulled = try benSync.pull()
                #expect(pulled.kind == .merged)
                #expect(pulled.resolutions.map(\.kind) == [.keptText])
                #expect(pulled.resolutions.map(\.keptPath) == ["cards/todo/shared.md"])
                let body = try ben.body(of: try ben.card("shared"))
                let kept = try #require(KeptText.sections(of: .conflict, in: body))
                #expect(kept.rest == "Steps:\n1. Open the window\n2. Close\n")
                #expect(kept.texts == ["1. Open the app\n"])
                #expect(try sandbox.read(ben.directory + "/untracked.txt") == "mine\n")
                #expect(try benSync.status().operationInProgress == nil)
                #expect(try benSync.status().isClean)
                // Ana gets the same card, whichever way round the merge ran.
                _ = try benSync.push()
                _ = try anaSync.pull()
                #expect(try sandbox.read(ana.directory + "/cards/todo/shared.md") == (try sandbox.read(ben.directory + "/cards/todo/shared.md")))
            }
        }

        @Test func keepsACardMovedToTwoColumnsInOneTheSameOnBothMachines() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard(clockGap: 600)
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                try commit(try ana.createCard(title: "Fix login bug", in: "todo", labels: ["bug"]), anaSync)
                _ = try anaSync.push()
                _ = try benSync.pull()
                // Ana moves it to Doing and labels it; Ben, ten minutes later by his clock, moves it to Done and edits it.
                try commit(try ana.moveCard("fix-login-bug", to: "doing"), anaSync)
                try commit(try ana.updateCard("fix-login-bug", CardUpdate(addedLabels: ["urgent"])), anaSync)
                _ = try anaSync.push()
                try commit(try ben.moveCard("fix-login-bug", to: "done"), benSync)
                try commit(try ben.updateCard("fix-login-bug", CardUpdate(body: "Found it.")), benSync)

                let pulled = try benSync.pull()
                #expect(pulled.kind == .merged)
                #expect(pulled.resolutions.map(\.slug).contains("fix-login-bug"))
                _ = try benSync.push()
                _ = try anaSync.pull()
                for store in [ana, ben] {
                    let copies = try store.load(.all).cards.filter { $0.slug == "fix-login-bug" }
                    #expect(copies.map(\.path) == ["cards/done/fix-login-bug.md"], "\(store.directory)")
                    let card = try store.card("fix-login-bug")
                    #expect(card.labels == ["bug", "urgent"])
                    #expect(card.body == "Found it.")
                    #expect(card.columnField == "done")
                }
                #expect(try sandbox.read(ana.directory + "/cards/done/fix-login-bug.md") == (try sandbox.read(ben.directory + "/cards/done/fix-login-bug.md")))
            }
        }

        @Test func keepsOneCopyWhenGitSawNoMoveAtAll() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard(clockGap: 600)
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                try commit(try ana.createCard(title: "Tiny", in: "todo"), anaSync)
                _ = try anaSync.push()
                _ = try benSync.pull()
                // Each side moves the card and rewrites it in one commit, so much that git sees a deletion and an
                // unrelated new file on both sides: no conflict, two copies.
                for (store, sync, column) in [(ana, anaSync, "doing"), (ben, benSync, "done")] {
                    let move = try store.moveCard("tiny", to: column)
                    let body = (1...30).map { "\(column) wrote line \($0) of a long rewrite." }.joined(separator: "\n")
                    let edit = try store.updateCard("tiny", CardUpdate(title: "Tiny, rewritten in \(column)", body: body))
                    try sync.commit([move, edit], message: CommitMessage(subject: "Rewrite tiny"))
                }
                _ = try anaSync.push()
                let pulled = try benSync.pull()
                #expect(pulled.resolutions.map(\.slug) == ["tiny", "tiny"])
                #expect(pulled.resolutions.map(\.kind) == [.placed, .keptText])
                #expect(try sandbox.git(["log", "-1", "--format=%s%n%b"], in: ben.directory).contains("tiny: moved to two places; kept in Done"))
                #expect(try ben.load(.all).cards.filter { $0.slug == "tiny" }.map(\.path) == ["cards/done/tiny.md"])
                #expect(try benSync.status().isClean)
            }
        }

        @Test func retriesAPushTheUpstreamGotAheadOf() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                try commit(try ben.createCard(title: "Ben first"), benSync)
                try commit(try ana.createCard(title: "Ana meanwhile"), anaSync)
                _ = try anaSync.push()
                // Ben pushes without pulling: rejected as not a fast-forward, so the push pulls and tries again.
                let pushed = try benSync.push()
                #expect(pushed.pushed == 2)
                #expect(pushed.pulls.map(\.kind) == [.merged])
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: ben.directory) == (try sandbox.git(["rev-parse", "origin/main"], in: ben.directory)))
            }
        }

        @Test func reportsAPushTheRemoteRefusesWithTheRemotesWords() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                try sandbox.script(sandbox.root + "/remote.git/hooks/pre-receive", "echo 'main is frozen for the release' >&2\nexit 1")
                let anaSync = sandbox.provider(ana)
                try commit(try ana.createCard(title: "Too late"), anaSync)
                let head = try sandbox.git(["rev-parse", "HEAD"], in: ana.directory)
                do {
                    _ = try anaSync.push()
                    Issue.record("a refused push succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .pushRejected)
                    #expect(error.message.contains("pre-receive hook declined"))
                    #expect(error.output?.contains("main is frozen for the release") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: ana.directory) == head)
                #expect(try anaSync.status().ahead == 1)
            }
        }

        @Test func givesUpOnARemoteThatDoesNotAnswer() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                // A remote reached through an ssh that never answers (and records its process id).
                let pidFile = sandbox.root + "/ssh.pid"
                try sandbox.script(sandbox.root + "/fake-ssh", "echo $$ > \(pidFile)\nexec sleep 30")
                sandbox.set("GIT_SSH_COMMAND", sandbox.root + "/fake-ssh")
                try sandbox.git(["remote", "set-url", "origin", "ssh://git@example.invalid/board.git"], in: ana.directory)
                let sync = sandbox.provider(ana, networkTimeout: .seconds(2))
                let clock = ContinuousClock()
                let start = clock.now
                do {
                    _ = try sync.pull()
                    Issue.record("a pull from a silent remote succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .timedOut)
                    #expect(error.message.contains("did not answer within 2 s"))
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(clock.now - start < .seconds(15))
                let pid = try #require(pid_t(try sandbox.read(pidFile).trimmingCharacters(in: .whitespacesAndNewlines)))
                #expect(sandbox.waitUntilGone(pid), "the fake ssh (\(pid)) outlived the time limit")
            }
        }

        @Test func reportsARemoteThatCannotBeRead() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                try sandbox.git(["remote", "set-url", "origin", sandbox.root + "/nowhere.git"], in: ana.directory)
                do {
                    _ = try sandbox.provider(ana).pull()
                    Issue.record("a pull from a missing remote succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .remoteFailed)
                    #expect(error.output?.isEmpty == false)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test func refusesToPullOverUncommittedChangesTheUpstreamTouches() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSync = sandbox.provider(ana)
                try sandbox.write("ana\n", to: ana.directory + "/notes.txt")
                try sandbox.git(["add", "notes.txt"], in: ana.directory)
                try sandbox.git(["commit", "--quiet", "-m", "notes"], in: ana.directory)
                _ = try anaSync.push()
                try sandbox.write("ben, not committed\n", to: ben.directory + "/notes.txt")
                do {
                    _ = try sandbox.provider(ben).pull()
                    Issue.record("a pull overwrote uncommitted work")
                } catch let error as SyncError {
                    #expect(error.code == .localChanges)
                    #expect(error.output?.contains("notes.txt") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(try sandbox.read(ben.directory + "/notes.txt") == "ben, not committed\n")
            }
        }

        @Test func keepsUncommittedWorkInTheStashWhenTheRebaseCannotPutItBack() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                try sandbox.write("base\n", to: ana.directory + "/notes.txt")
                try sandbox.git(["add", "notes.txt"], in: ana.directory)
                try sandbox.git(["commit", "--quiet", "-m", "notes"], in: ana.directory)
                _ = try sandbox.provider(ana).push()
                _ = try sandbox.provider(ben).pull()
                try sandbox.write("ana's notes\n", to: ana.directory + "/notes.txt")
                try sandbox.git(["commit", "--quiet", "-am", "ana's notes"], in: ana.directory)
                _ = try sandbox.provider(ana).push()
                // Ben has a board commit of his own (so the pull rebases) and uncommitted notes the rebase collides with.
                try commit(try ben.createCard(title: "From Ben"), sandbox.provider(ben))
                try sandbox.write("ben's notes, not committed\n", to: ben.directory + "/notes.txt")
                let pulled = try sandbox.provider(ben).pull()
                #expect(pulled.kind == .merged)
                #expect(pulled.isStashKept)
                #expect(try sandbox.git(["stash", "list"], in: ben.directory).contains("autostash"))
                #expect(try sandbox.git(["stash", "show", "-p"], in: ben.directory).contains("+ben's notes, not committed"))
            }
        }

        @Test func followsACardThroughColumnsAndTheArchive() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                let sync = sandbox.provider(ana)
                try commit(try ana.createCard(title: "Fix login bug", in: "todo"), sync)
                try commit(try ana.createCard(title: "Other", in: "todo"), sync)
                try commit(try ana.moveCard("fix-login-bug", to: "doing"), sync)
                try commit(try ana.updateCard("fix-login-bug", CardUpdate(title: "Fix the login bug for good", body: "All new text.")), sync)
                try commit(try ana.moveCard("fix-login-bug", to: "done"), sync)
                try commit(try ana.archiveCard("fix-login-bug"), sync)
                let history = try sync.history(ofCard: "fix-login-bug")
                #expect(history.map(\.subject) == [
                    "Archive \"Fix the login bug for good\"",
                    "Move \"Fix the login bug for good\" from Doing to Done",
                    "Edit \"Fix the login bug for good\" (title, body)",
                    "Move \"Fix login bug\" from To Do to Doing",
                    "Add \"Fix login bug\" to To Do",
                ])
                #expect(history.map(\.path) == ["archive/2026-05-28-fix-login-bug.md", "cards/done/fix-login-bug.md",
                                                "cards/doing/fix-login-bug.md", "cards/doing/fix-login-bug.md", "cards/todo/fix-login-bug.md"])
                #expect(history[1].trailers == [CommitTrailer("Card", "fix-login-bug"), CommitTrailer("From", "doing"), CommitTrailer("To", "done")])
                #expect(history.allSatisfy { $0.author == "Ana Lee" })
                #expect(try sync.history(ofCard: "never-was").isEmpty)
            }
        }
    }
}
