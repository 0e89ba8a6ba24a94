import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// `GitSyncProvider.status()` against real repositories: every state a board can be in.
    @Suite struct GitSyncProviderStatusTests {
        @Test func aBoardOutsideGitIsAStatusNotAnError() throws {
            try withGitSandbox { sandbox in
                let store = try sandbox.makeBoard(in: sandbox.root + "/plain")
                let provider = sandbox.provider(store)
                let status = try provider.status()
                #expect(status.availability == .notARepository)
                #expect(status.problems == [.notARepository])
                #expect(throws: SyncError.self) { try provider.commitPendingChanges() }
                do {
                    _ = try provider.pull()
                    Issue.record("pull outside a repository succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .notARepository)
                    #expect(error.hint?.contains("git init") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test(arguments: [nil, "/nonexistent/bin/git"] as [String?])
        func aMissingGitIsAStatusNotAnError(executable: String?) throws {
            try withGitSandbox { sandbox in
                let repository = try sandbox.makeRepository(named: "repo")
                let store = try sandbox.makeBoard(in: repository)
                var configuration = sandbox.configuration()
                configuration.executable = executable
                let provider = GitSyncProvider(store: store, configuration: configuration)
                #expect(try provider.status().availability == .gitNotInstalled)
                do {
                    _ = try provider.commitPendingChanges()
                    Issue.record("committing without git succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .gitNotInstalled)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test func locatesGitFromTheEnvironmentGiven() throws {
            try withGitSandbox { sandbox in
                #expect(GitConfiguration.locate(in: ["PATH": "/nonexistent:" + (sandbox.environment["PATH"] ?? "")]) != nil)
                #expect(GitConfiguration.locate(in: ["PATH": "/nonexistent"]) == nil)
                #expect(GitConfiguration.locate(in: ["KANBAN_GIT": sandbox.gitPath, "PATH": "/nonexistent"]) == sandbox.gitPath)
                #expect(GitConfiguration.locate(in: ["KANBAN_GIT": "/nonexistent/git"]) == nil)
            }
        }

        @Test func reportsNoRemoteThenNoUpstream() throws {
            try withGitSandbox { sandbox in
                let repository = try sandbox.makeRepository(named: "repo")
                let store = try sandbox.makeBoard(in: repository)
                let provider = sandbox.provider(store)
                var status = try provider.status()
                #expect(status.availability == .ready)
                #expect(status.branch == "main")
                #expect(status.isUnborn)
                #expect(status.problems == [.noRemote])
                #expect(status.boardFileChanged)
                #expect(throws: SyncError.self) { try provider.pull() }

                let remote = try sandbox.makeRemote()
                try sandbox.git(["remote", "add", "origin", remote], in: repository)
                status = try provider.status()
                #expect(status.problems == [.noUpstream])
                do {
                    _ = try provider.push()
                    Issue.record("push without upstream succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .noUpstream)
                    #expect(error.hint?.contains("git push -u origin main") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test func reportsADetachedHead() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                try sandbox.git(["checkout", "--quiet", "--detach"], in: ana.directory)
                let provider = sandbox.provider(ana)
                let status = try provider.status()
                #expect(status.isDetached)
                #expect(status.branch == nil)
                #expect(status.problems == [.detachedHead])
                do {
                    _ = try provider.pull()
                    Issue.record("pull on a detached HEAD succeeded")
                } catch let error as SyncError {
                    #expect(error.code == .detachedHead)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test func reportsAMergeInProgressAndRefusesToCommitDuringIt() throws {
            try withGitSandbox { sandbox in
                let (ana, _) = try sandbox.makeSharedBoard()
                let directory = ana.directory
                try sandbox.write("one\n", to: directory + "/notes.txt")
                try sandbox.git(["add", "notes.txt"], in: directory)
                try sandbox.git(["commit", "--quiet", "-m", "notes"], in: directory)
                try sandbox.git(["checkout", "--quiet", "-b", "other", "HEAD~1"], in: directory)
                try sandbox.write("two\n", to: directory + "/notes.txt")
                try sandbox.git(["add", "notes.txt"], in: directory)
                try sandbox.git(["commit", "--quiet", "-m", "other notes"], in: directory)
                #expect(try sandbox.run(["merge", "main"], in: directory).status != 0)

                let provider = sandbox.provider(ana)
                let status = try provider.status()
                #expect(status.operationInProgress == .merge)
                #expect(status.problems.first == .operationInProgress)
                let change = try ana.createCard(title: "During the merge")
                do {
                    _ = try provider.commit(change, message: CommitMessage(subject: "x"))
                    Issue.record("committed during a merge")
                } catch let error as SyncError {
                    #expect(error.code == .operationInProgress)
                    #expect(error.hint?.contains("git merge --abort") == true)
                } catch {
                    Issue.record("unexpected error: \(error)")
                }
            }
        }

        @Test func countsCommitsAheadAndBehind() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSync = sandbox.provider(ana)
                let benSync = sandbox.provider(ben)
                #expect(try benSync.status().isClean)
                try anaSync.commit(try ana.createCard(title: "From Ana"), message: CommitMessage(subject: "Add"))
                try anaSync.commit(try ana.createCard(title: "From Ana again"), message: CommitMessage(subject: "Add"))
                _ = try anaSync.push()
                try ben.createCard(title: "From Ben")
                _ = try benSync.commitPendingChanges()
                try sandbox.git(["fetch", "--quiet"], in: ben.directory)
                let status = try benSync.status()
                #expect(status.upstream == "origin/main")
                #expect(status.ahead == 1)
                #expect(status.behind == 2)
                #expect(status.isClean)
                // The part any provider has, through the protocol.
                let state = try (benSync as any SyncProvider).state()
                #expect(state.outgoing == 1 && state.incoming == 2)
                #expect(state.canSync && !state.hasUnrecordedChanges)
            }
        }

        @Test func statesTheProblemsOfABoardOutsideGitThroughTheProtocol() throws {
            try withGitSandbox { sandbox in
                let provider: any SyncProvider = sandbox.provider(try sandbox.makeBoard(in: sandbox.root + "/plain"))
                let state = try provider.state()
                #expect(state.problems == [.notARepository])
                #expect(!state.canSync && state.outgoing == nil && state.incoming == nil)
            }
        }

        @Test func describesUncommittedChangesAsCardEvents() throws {
            try withGitSandbox { sandbox in
                let repository = try sandbox.makeRepository(named: "repo")
                let store = try sandbox.makeBoard(in: repository)
                for title in ["Stay", "Move me", "Edit me", "Archive me", "Delete me", "Reorder me", "Archived long ago"] {
                    try store.createCard(title: title, in: "todo")
                }
                try store.archiveCard("archived-long-ago")
                try sandbox.git(["add", "--all"], in: repository)
                try sandbox.git(["commit", "--quiet", "-m", "Start"], in: repository)

                try store.createCard(title: "Brand new", in: "doing")
                try store.moveCard("move-me", to: "done")
                try store.updateCard("edit-me", CardUpdate(title: "Edited", addedLabels: ["bug"]))
                let archived = try store.archiveCard("archive-me")
                try store.deleteCard("delete-me")
                try store.moveCard("reorder-me", placement: .top)
                try store.unarchiveCard("archived-long-ago", to: "doing")
                try store.addLabel(id: "later")
                // A file that is not part of the board is no card event.
                try sandbox.write("notes", to: repository + "/cards/todo/notes.txt")

                let status = try sandbox.provider(store).status()
                let events = Dictionary(uniqueKeysWithValues: status.changes.map { ($0.slug, $0) })
                #expect(Set(events.keys) == ["brand-new", "move-me", "edit-me", "archive-me", "delete-me", "reorder-me", "archived-long-ago"])
                #expect(events["brand-new"]?.kind == .added)
                #expect(events["brand-new"]?.column == "doing")
                #expect(events["move-me"]?.kind == .moved)
                #expect(events["move-me"]?.previousColumn == "todo")
                #expect(events["move-me"]?.column == "done")
                #expect(events["move-me"]?.previousPath == "cards/todo/move-me.md")
                #expect(events["edit-me"]?.kind == .edited)
                #expect(events["edit-me"]?.title == "Edited")
                #expect(events["edit-me"]?.changedFields == ["title", "labels"])
                #expect(events["archive-me"]?.kind == .archived)
                #expect(events["archive-me"]?.column == "todo")
                #expect(events["archive-me"]?.path == archived.card?.path)
                #expect(events["delete-me"]?.kind == .deleted)
                #expect(events["delete-me"]?.title == "Delete me")
                #expect(events["reorder-me"]?.kind == .reordered)
                #expect(events["archived-long-ago"]?.kind == .unarchived)
                #expect(events["archived-long-ago"]?.column == "doing")
                #expect(status.boardFileChanged)
                #expect(!status.isClean)
            }
        }

        @Test func readsAHugeStatusWithoutBlocking() throws {
            try withGitSandbox { sandbox in
                let repository = try sandbox.makeRepository(named: "repo")
                let store = try sandbox.makeBoard(in: repository)
                // Far more than a pipe holds (64 KiB): 4000 new cards with long names.
                let padding = String(repeating: "x", count: 60)
                for index in 0..<4_000 {
                    try sandbox.write("---\ntitle: Card \(index)\n---\n", to: repository + "/cards/todo/card-\(index)-\(padding).md")
                }
                let status = try sandbox.provider(store).status()
                #expect(status.changes.count == 4_000)
                #expect(status.changes.allSatisfy { $0.kind == .added })
            }
        }
    }
}
