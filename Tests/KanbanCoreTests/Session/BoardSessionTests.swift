import Foundation
import Synchronization
import Testing

@testable import KanbanCore

/// The session every surface changes the board through: the commit policy, the rule "refuse before changing what
/// cannot be committed", the lock held from a change to its commit, and the provider-neutral sync.
@Suite struct BoardSessionTests {
    /// A provider that records what it was asked and fails where told.
    final class RecordingProvider: SyncProvider, @unchecked Sendable {
        let calls = Mutex<[String]>([])
        var refusal: SyncError?
        var commitFailure: SyncError?
        var pullFailure: SyncError?
        /// Whether the board's lock was held when commit was called.
        let lockHeldAtCommit = Mutex<Bool?>(nil)
        let directory: String

        init(directory: String) {
            self.directory = directory
        }

        private func note(_ call: String) { calls.withLock { $0.append(call) } }

        func state() throws(SyncError) -> SyncState { SyncState() }
        func requireCommitPossible() throws(SyncError) {
            note("check")
            if let refusal { throw refusal }
        }
        func commit(paths: [String], message: CommitMessage) throws(SyncError) -> CommitResult? {
            note("commit \(message.subject)")
            lockHeldAtCommit.withLock { $0 = BoardLock.held.contains(directory) }
            if let commitFailure { throw commitFailure }
            return CommitResult(commit: "0123456789abcdef", message: message, paths: paths)
        }
        func commitPendingChanges(message: CommitMessage?) throws(SyncError) -> CommitResult? {
            note("commit pending")
            return CommitResult(commit: "fedcba9876543210", message: CommitMessage(subject: "Update 1 card"), paths: ["cards/todo/a.md"])
        }
        func pull() throws(SyncError) -> PullResult {
            note("pull")
            if let pullFailure { throw pullFailure }
            return PullResult(kind: .fastForward, incoming: 2)
        }
        func push() throws(SyncError) -> PushResult {
            note("push")
            return PushResult(pushed: 1, upstream: "origin/main")
        }
        func recordDeletions(of slugs: [String], at date: Date) { note("deleted \(slugs.joined(separator: ","))") }
    }

    private func withBoard(autocommit: Bool = false, _ body: (BoardStore) throws -> Void) throws {
        var text = TemporaryBoard.teamBoardText
        if autocommit { text = text.replacingOccurrences(of: "title: Team Board\n", with: "title: Team Board\nautocommit: true\n") }
        let board = try TemporaryBoard.make(.boardFile(text, columns: ["todo", "doing", "done"]))
        defer { board.remove() }
        try body(try board.store())
    }

    @Test(arguments: [
        (false, [String: String](), CommitPolicy.boardSetting),
        (true, ["KANBAN_COMMIT": "0"], .always),
        (false, ["KANBAN_COMMIT": "yes"], .always),
        (false, ["KANBAN_COMMIT": "Off"], .never),
        (false, ["KANBAN_COMMIT": "maybe"], .boardSetting),
    ])
    func thePolicyIsTheFlagElseTheEnvironmentElseTheBoard(flag: Bool, environment: [String: String], expected: CommitPolicy) {
        #expect(CommitPolicy(commitFlag: flag, environment: environment) == expected)
    }

    @Test func aChangeToBeCommittedIsCommittedUnderTheLockWithADescribingMessage() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            let session = BoardSession(store: store, sync: provider, commitPolicy: .always)
            let (card, outcome) = try session.change { store in
                let change = try store.createCard(title: "Write the tests", in: "todo")
                return (change.card, [change])
            }
            #expect(card?.title == "Write the tests")
            #expect(outcome.commit?.message.subject == "Add \"Write the tests\" to To Do")
            #expect(provider.calls.withLock { $0 } == ["check", "commit Add \"Write the tests\" to To Do"])
            #expect(provider.lockHeldAtCommit.withLock { $0 } == true)
        }
    }

    @Test func aChangeThatCannotBeCommittedIsRefusedBeforeItIsMade() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            provider.refusal = SyncError(.detachedHead, "HEAD is detached: not on any branch")
            let session = BoardSession(store: store, sync: provider, commitPolicy: .always)
            var ran = false
            #expect {
                try session.withChange { ran = true }
            } throws: { error in
                (error as? SyncError)?.code == .detachedHead && (error as? SyncError)?.hint?.contains("Nothing was changed.") == true
            }
            #expect(!ran)
        }
    }

    @Test func autocommitOutsideARepositoryChangesTheBoardWithAWarning() throws {
        try withBoard(autocommit: true) { store in
            let provider = RecordingProvider(directory: store.directory)
            let outside = SyncError(.notARepository, "the board is not in a git repository")
            provider.refusal = outside
            provider.commitFailure = outside
            let session = BoardSession(store: store, sync: provider)
            let (_, outcome) = try session.change { store in ((), [try store.createCard(title: "Loose", in: "todo")]) }
            guard case .notInRepository(let warning) = outcome else {
                Issue.record("expected a warning, got \(outcome)")
                return
            }
            #expect(warning.contains("autocommit: true"))
            #expect(try store.load().cards.map(\.title) == ["Loose"])
        }
    }

    @Test func nothingIsCommittedWithoutBeingAskedAndADeleteIsStillNoted() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            let session = BoardSession(store: store, sync: provider, commitPolicy: .boardSetting)
            let made = try store.createCard(title: "Short lived", in: "todo")
            let (_, outcome) = try session.change { store in ((), [try store.deleteCard(made.card!.path)]) }
            #expect(outcome == .notCommitted)
            #expect(provider.calls.withLock { $0 } == ["deleted short-lived"])
        }
    }

    @Test func aChangeInsideAnotherIsPartOfIt() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            let session = BoardSession(store: store, sync: provider, commitPolicy: .always)
            try session.withChange {
                try session.withChange {
                    _ = try session.commit([try store.createCard(title: "Inner", in: "todo")])
                }
            }
            // One check for the outer change; the inner one joined it.
            #expect(provider.calls.withLock { $0 }.filter { $0 == "check" }.count == 1)
        }
    }

    @Test func aBoardFileReplacedDuringAChangeIsReadAgain() throws {
        try withBoard { store in
            try store.withBoardFileCached {
                #expect(try store.loadBoard().title == "Team Board")
                let text = try String(contentsOfFile: store.directory + "/board.md", encoding: .utf8)
                try text.replacingOccurrences(of: "title: Team Board", with: "title: Renamed")
                    .write(toFile: store.directory + "/board.md", atomically: true, encoding: .utf8)
                #expect(try store.loadBoard().title == "Renamed")
            }
        }
    }

    @Test func theDefaultSyncCommitsPullsAndPushesAndSaysSo() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            let session = BoardSession(store: store, sync: provider)
            var heard: [SyncStep] = []
            let report = try session.sync { heard.append($0) }
            #expect(report.steps == heard)
            #expect(provider.calls.withLock { $0 } == ["commit pending", "pull", "push"])
            #expect(report.lines(board: nil).map(\.text) == [
                "committed fedcba9 Update 1 card", "pulled 2 commits from the other side", "pushed 1 commit to origin/main",
            ])
        }
    }

    @Test func aSyncThatFailsAfterItsCommitSaysTheChangesAreCommitted() throws {
        try withBoard { store in
            let provider = RecordingProvider(directory: store.directory)
            provider.pullFailure = SyncError(.remoteFailed, "the remote refused; nothing was changed")
            let session = BoardSession(store: store, sync: provider)
            #expect {
                _ = try session.sync(pushing: false)
            } throws: { error in
                guard let error = error as? SyncError else { return false }
                return error.message == "the remote refused; nothing was pulled or pushed" && error.hint?.contains("committed locally (fedcba9)") == true
            }
        }
    }

    @Test func aBoardWithoutAProviderCannotSync() throws {
        try withBoard { store in
            #expect(throws: SyncError.self) { _ = try BoardSession(store: store).sync() }
        }
    }
}
