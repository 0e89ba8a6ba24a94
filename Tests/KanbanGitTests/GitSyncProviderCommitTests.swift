import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// Commits: exactly the board's paths, one per action, never empty; and each way committing can fail.
    @Suite struct GitSyncProviderCommitTests {
        /// A repository `project` with some code, and a board in its sub-folder `docs/board`.
        private func makeProject(_ sandbox: GitSandbox) throws -> (project: String, store: BoardStore) {
            let project = try sandbox.makeRepository(named: "project")
            try sandbox.write("print(1)\n", to: project + "/src/main.swift")
            try sandbox.write("# Project\n", to: project + "/README.md")
            let store = try sandbox.makeBoard(in: project + "/docs/board")
            try sandbox.git(["add", "--all"], in: project)
            try sandbox.git(["commit", "--quiet", "-m", "Start"], in: project)
            return (project, store)
        }

        @Test func commitsOnlyTheBoardsPathsInABiggerRepository() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                // The person's own work: a staged change, an unstaged change, an untracked file.
                try sandbox.write("print(2)\n", to: project + "/src/main.swift")
                try sandbox.git(["add", "src/main.swift"], in: project)
                try sandbox.write("# Project, edited\n", to: project + "/README.md")
                try sandbox.write("scratch\n", to: project + "/notes.txt")

                let change = try store.createCard(title: "Write docs", in: "doing")
                let provider = sandbox.provider(store)
                let result = try #require(try provider.commit(change, message: CommitMessage(describing: [change], board: try store.loadBoard())!))
                #expect(result.paths == ["cards/doing/write-docs.md"])
                #expect(try sandbox.git(["show", "--format=%s", "--name-only", "HEAD"], in: project)
                            == "Add \"Write docs\" to Doing\n\ndocs/board/cards/doing/write-docs.md")
                #expect(try sandbox.git(["diff", "--cached", "--name-only"], in: project) == "src/main.swift")
                #expect(try sandbox.git(["diff", "--name-only"], in: project) == "README.md")
                #expect(try sandbox.git(["status", "--porcelain", "--", "notes.txt"], in: project) == "?? notes.txt")
                #expect(try provider.status().changes.isEmpty)
                #expect(try provider.status().boardPrefix == "docs/board")
            }
        }

        @Test func recordsAMoveAsOneCommitWithTrailers() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                let provider = sandbox.provider(store)
                try provider.commit(try store.createCard(title: "Fix login bug", in: "todo"), message: CommitMessage(subject: "Add"))
                let move = try store.moveCard("fix-login-bug", to: "done")
                let message = try #require(CommitMessage(describing: [move], board: try store.loadBoard()))
                try provider.commit(move, message: message)
                #expect(try sandbox.git(["log", "-1", "--format=%B"], in: project)
                            == "Move \"Fix login bug\" from To Do to Done\n\nCard: fix-login-bug\nFrom: todo\nTo: done")
                #expect(try sandbox.git(["show", "--format=", "--name-status", "--no-renames", "HEAD"], in: project)
                            .split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }.sorted() == ["A", "D"])
                #expect(try sandbox.git(["log", "-1", "--format=%(trailers:key=To,valueonly)"], in: project) == "done")
            }
        }

        @Test func anAgentsCommitSaysWhoseItIs() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                var configuration = sandbox.configuration(networkTimeout: .seconds(20))
                configuration.environment["KANBAN_AGENT"] = "bot-7"
                let agent = GitSyncProvider(store: store, configuration: configuration)
                try agent.commit(try store.createCard(title: "Fix login bug", in: "todo"), message: CommitMessage(subject: "Add"))
                #expect(try sandbox.git(["log", "-1", "--format=%(trailers:key=Kanban-Agent,valueonly)"], in: project) == "bot-7")
                // A person's commit (no KANBAN_AGENT), and a name that would break the message, carry none.
                try sandbox.provider(store).commit(try store.moveCard("fix-login-bug", to: "done"), message: CommitMessage(subject: "Move"))
                #expect(try sandbox.git(["log", "-1", "--format=%(trailers:key=Kanban-Agent,valueonly)"], in: project) == "")
                configuration.environment["KANBAN_AGENT"] = "bot\nCard: forged"
                try GitSyncProvider(store: store, configuration: configuration)
                    .commit(try store.moveCard("fix-login-bug", to: "todo"), message: CommitMessage(subject: "Back"))
                #expect(try sandbox.git(["log", "-1", "--format=%B"], in: project).contains("forged") == false)
            }
        }

        @Test func neverMakesAnEmptyCommit() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                let provider = sandbox.provider(store)
                let head = try sandbox.git(["rev-parse", "HEAD"], in: project)
                #expect(try provider.commitPendingChanges() == nil)
                #expect(try provider.commit(paths: [], message: CommitMessage(subject: "x")) == nil)
                #expect(try provider.commit(paths: ["board.md"], message: CommitMessage(subject: "x")) == nil)
                // A card made and removed again before any commit: nothing for git to record.
                let made = try store.createCard(title: "Short lived")
                let removed = try store.deleteCard("short-lived")
                #expect(try provider.commit([made, removed], message: CommitMessage(subject: "x")) == nil)
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: project) == head)
            }
        }

        @Test func refusesPathsOutsideTheBoard() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                try sandbox.write("print(3)\n", to: project + "/src/main.swift")
                let provider = sandbox.provider(store)
                #expect(try provider.commit(paths: ["../../src/main.swift", "/etc/passwd"], message: CommitMessage(subject: "x")) == nil)
                #expect(try sandbox.git(["diff", "--name-only"], in: project) == "src/main.swift")
            }
        }

        @Test func commitsEveryPendingChangeAsOneCommit() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                try store.createCard(title: "One", in: "todo")
                try store.createCard(title: "Two", in: "doing")
                try store.addLabel(id: "later")
                try sandbox.write("not a card\n", to: store.directory + "/cards/todo/notes.txt")
                let provider = sandbox.provider(store)
                let result = try #require(try provider.commitPendingChanges())
                #expect(result.message.subject == "Add 2 cards and board settings")
                #expect(Set(result.paths) == ["cards/todo/one.md", "cards/doing/two.md", "board.md"])
                #expect(try sandbox.git(["log", "-1", "--format=%B"], in: project) == """
                    Add 2 cards and board settings

                    - Add "Two" to Doing [two]
                    - Add "One" to To Do [one]

                    Card: two
                    Card: one
                    """)
                #expect(try provider.status().changes.isEmpty)
                #expect(try sandbox.git(["status", "--porcelain"], in: project) == "?? docs/board/cards/todo/notes.txt")
                #expect(try provider.commitPendingChanges() == nil)
            }
        }

        @Test func explainsAMissingIdentityAndCommitsNothing() throws {
            try withGitSandbox(identity: false) { sandbox in
                let project = try sandbox.makeRepository(named: "project")
                let store = try sandbox.makeBoard(in: project)
                let provider = sandbox.provider(store)
                do {
                    _ = try provider.commitPendingChanges()
                    Issue.record("committed without an identity")
                } catch let error as SyncError {
                    #expect(error.code == .missingIdentity)
                    #expect(error.message.contains("user.name and user.email"))
                    #expect(error.hint?.contains("git config --global user.name \"Your Name\"") == true)
                    #expect(error.hint?.contains("git config --global user.email \"you@example.com\"") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(try sandbox.git(["status", "--porcelain"], in: project).contains("?? board.md"))
                #expect(try sandbox.run(["rev-parse", "--verify", "HEAD"], in: project).status != 0)
                // The identity may come from the environment too.
                sandbox.set("GIT_AUTHOR_NAME", "Env Author")
                sandbox.set("GIT_AUTHOR_EMAIL", "author@example.com")
                sandbox.set("GIT_COMMITTER_NAME", "Env Author")
                sandbox.set("GIT_COMMITTER_EMAIL", "author@example.com")
                #expect(try sandbox.provider(store).commitPendingChanges() != nil)
            }
        }

        @Test func waitsForAHeldIndexLockThenReportsItWithoutRemovingIt() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                let lock = project + "/.git/index.lock"
                try sandbox.write("", to: lock)
                try store.createCard(title: "Blocked")
                let provider = sandbox.provider(store)
                do {
                    _ = try provider.commitPendingChanges()
                    Issue.record("committed while index.lock was held")
                } catch let error as SyncError {
                    #expect(error.code == .indexLocked)
                    #expect(error.message.contains("index.lock"))
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(sandbox.exists(lock))
                #expect(sandbox.exists(store.directory + "/cards/todo/blocked.md"))
            }
        }

        @Test func succeedsWhenTheIndexLockIsReleasedWhileRetrying() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                let lock = project + "/.git/index.lock"
                try sandbox.write("", to: lock)
                try store.createCard(title: "Patient")
                var configuration = sandbox.configuration()
                configuration.lockRetries = 40
                configuration.lockRetryDelay = .milliseconds(50)
                let provider = GitSyncProvider(store: store, configuration: configuration)
                let release = Thread { Thread.sleep(forTimeInterval: 0.3); try? FileManager.default.removeItem(atPath: lock) }
                release.start()
                let result = try provider.commitPendingChanges()
                #expect(result?.message.subject == "Add \"Patient\" to To Do")
            }
        }

        @Test func showsWhatAFailingPreCommitHookSaid() throws {
            try withGitSandbox { sandbox in
                let (project, store) = try makeProject(sandbox)
                try sandbox.script(project + "/.git/hooks/pre-commit", "echo 'lint: card titles must not shout' >&2\nexit 1")
                let head = try sandbox.git(["rev-parse", "HEAD"], in: project)
                try store.createCard(title: "LOUD TITLE")
                do {
                    _ = try sandbox.provider(store).commitPendingChanges()
                    Issue.record("committed past a failing hook")
                } catch let error as SyncError {
                    #expect(error.code == .hookFailed)
                    #expect(error.message.contains("pre-commit"))
                    #expect(error.output?.contains("lint: card titles must not shout") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: project) == head)
                // The card is still there, and not left staged.
                #expect(sandbox.exists(store.directory + "/cards/todo/loud-title.md"))
                #expect(try sandbox.git(["diff", "--cached", "--name-only"], in: project).isEmpty)
            }
        }

        @Test func recreatesAColumnDirectoryAFreshCloneLacks() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                // Empty directories are not in git: Ben's clone has no cards/doing/ or cards/done/.
                #expect(!sandbox.exists(ben.directory + "/cards/doing"))
                #expect(try ben.load().columnIDs == ["todo", "doing", "done"])
                let change = try ben.createCard(title: "Into an empty column", in: "doing")
                let benSync = sandbox.provider(ben)
                #expect(try benSync.commit(change, message: CommitMessage(describing: [change])!) != nil)
                _ = try benSync.push()
                _ = try sandbox.provider(ana).pull()
                #expect(try ana.load().cards(inColumn: "doing").map(\.slug) == ["into-an-empty-column"])
            }
        }
    }
}
