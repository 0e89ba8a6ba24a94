import Foundation
import KanbanCore
import Observation
import Synchronization
import Testing
@testable import KanbanWatch

/// Waits on the main actor, without blocking it, until `condition` holds or `timeout` passes; returns whether it held.
@MainActor
func eventually(timeout: Duration = generousTimeout, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// The first element of `stream` that `matches`, or nil when none comes within `timeout` (or the stream ends).
func firstElement<Element: Sendable>(of stream: AsyncStream<Element>, timeout: Duration = generousTimeout,
                                     where matches: @escaping @Sendable (Element) -> Bool) async -> Element? {
    await withTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where matches(element) { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

@MainActor
@Suite struct LiveBoardModelTests {
    private static let options = WatchOptions(settle: .milliseconds(50), pollInterval: .milliseconds(100))

    private func titles(_ model: LiveBoardModel, in column: String) -> [String] {
        model.board.columns.first { $0.id == column }?.cards.map(\.title) ?? []
    }

    @Test(arguments: Mechanism.allCases)
    func anEditElsewhereIsObservedThroughObservation(_ mechanism: Mechanism) async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, watching: mechanism == .polling ? .polling : .automatic, options: Self.options)
        defer { model.stop() }
        #expect(!model.isLoaded)
        try await model.start()
        #expect(model.isLoaded)
        #expect(model.isFollowing)
        #expect(titles(model, in: "todo") == ["fix-login", "write-docs"])

        let changed = Mutex(false)
        withObservationTracking {
            _ = model.board
        } onChange: {
            changed.withLock { $0 = true }
        }
        try board.write(WatchedBoard.cardText(title: "Fix login now", column: "todo"), to: "cards/todo/fix-login.md")
        #expect(await eventually { changed.withLock { $0 } })
        #expect(await eventually { titles(model, in: "todo").contains("Fix login now") })
        #expect(model.board.card(atPath: "cards/todo/fix-login.md")?.title == "Fix login now")
    }

    @Test func anEditElsewhereArrivesOnTheStreamOfChanges() async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, options: Self.options)
        defer { model.stop() }
        try await model.start()
        try await model.start()  // a second call, as a view's `.task` makes each time it appears, does nothing
        let changes = model.changes()

        try board.rename("cards/todo/fix-login.md", "cards/done/fix-login.md")
        let change = await firstElement(of: changes) { change in
            if case .observed(let event) = change { return event.slug == "fix-login" }
            return false
        }
        guard case .observed(let event)? = change else {
            Issue.record("no change for fix-login arrived")
            return
        }
        #expect(event.kind == .moved)
        // By the time a change arrives, the board shows it.
        #expect(titles(model, in: "done").contains("fix-login"))
        #expect(!titles(model, in: "todo").contains("fix-login"))
    }

    @Test func changesMadeThroughTheModelAreOnTheBoardWhenTheCallReturns() async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, options: Self.options)
        defer { model.stop() }
        try await model.start()
        let changes = model.changes()

        let added = try await model.addCard(title: "Plan the launch", in: "doing")
        let card = try #require(added.card)
        #expect(titles(model, in: "doing").contains("Plan the launch"))
        let made = await firstElement(of: changes) { if case .made = $0 { true } else { false } }
        guard case .made(let change)? = made else {
            Issue.record("the change was not on the stream")
            return
        }
        #expect(change == added)

        try await model.moveCard(card.slug, to: "done", placement: .top)
        #expect(titles(model, in: "done").first == "Plan the launch")

        try await model.updateCard(card.slug, CardUpdate(title: "Plan the big launch"))
        #expect(titles(model, in: "done").first == "Plan the big launch")

        let deleted = try await model.deleteCard(card.slug)
        #expect(deleted.column == "done")
        #expect(!titles(model, in: "done").contains("Plan the big launch"))
        #expect(!FileManager.default.fileExists(atPath: board.path("cards/done/\(card.slug).md")))

        try await model.restoreCard(deleted)
        #expect(titles(model, in: "done").first == "Plan the big launch")
        #expect(try board.text("cards/done/\(card.slug).md").utf8.elementsEqual(deleted.bytes))

        try await model.archiveCard(card.slug)
        #expect(!titles(model, in: "done").contains("Plan the big launch"))
    }

    /// A provider that records what it commits, and can refuse every change.
    final class RecordingProvider: SyncProvider, @unchecked Sendable {
        let subjects = Mutex<[String]>([])
        var refusal: SyncError?

        func state() throws(SyncError) -> SyncState { SyncState() }
        func requireCommitPossible() throws(SyncError) { if let refusal { throw refusal } }
        func commit(paths: [String], message: CommitMessage) throws(SyncError) -> CommitResult? {
            subjects.withLock { $0.append(message.subject) }
            return CommitResult(commit: "0123456789", message: message, paths: paths)
        }
        func commitPendingChanges(message: CommitMessage?) throws(SyncError) -> CommitResult? { nil }
        func pull() throws(SyncError) -> PullResult { PullResult(kind: .upToDate) }
        func push() throws(SyncError) -> PushResult { PushResult(pushed: 0, upstream: "origin/main") }
    }

    @Test func aModelGivenASessionCommitsItsChangesAsKanbanDoes() async throws {
        let board = try WatchedBoard()
        let provider = RecordingProvider()
        let model = LiveBoardModel(session: BoardSession(store: board.store, sync: provider, commitPolicy: .always), options: Self.options)
        defer { model.stop() }
        try await model.start()
        let added = try await model.addCard(title: "Plan the launch", in: "doing")
        #expect(model.lastCommit?.commit?.message.subject == "Add \"Plan the launch\" to Doing")
        try await model.moveCard(try #require(added.card).slug, to: "done")
        #expect(provider.subjects.withLock { $0 } == ["Add \"Plan the launch\" to Doing", "Move \"Plan the launch\" from Doing to Done"])

        provider.refusal = SyncError(.detachedHead, "HEAD is detached: not on any branch")
        await #expect(throws: KanbanError.self) { try await model.addCard(title: "Not made", in: "doing") }
        #expect(!titles(model, in: "doing").contains("Not made"))
        #expect(!FileManager.default.fileExists(atPath: board.path("cards/doing/not-made.md")))
    }

    @Test func aNewColumnInBoardFileLoadsTheBoardAgain() async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, options: Self.options)
        defer { model.stop() }
        try await model.start()
        let changes = model.changes()
        let text = WatchedBoard.boardText.replacingOccurrences(of: "  - id: done\n    name: Done\n",
                                                               with: "  - id: done\n    name: Done\n  - id: later\n    name: Later\n")
        #expect(text != WatchedBoard.boardText)
        try FileSystemTestSupport.makeDirectory(board.path("cards/later"))
        try board.write(WatchedBoard.cardText(title: "someday", column: "later"), to: "cards/later/someday.md")
        try board.write(text, to: "board.md")
        let loaded = await firstElement(of: changes) { change in
            if case .loaded = change { return true }
            return false
        }
        #expect(loaded != nil)
        #expect(await eventually { titles(model, in: "later") == ["someday"] })
        #expect(model.board.columns.map(\.name) == ["To Do", "Doing", "Done", "Later"])
        #expect(model.problem == nil)
    }

    @Test func aFailedChangeThrowsAndLeavesTheBoard() async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, options: Self.options)
        defer { model.stop() }
        try await model.start()
        let before = model.board
        await #expect(throws: KanbanError.self) {
            try await model.moveCard("no-such-card", to: "done")
        }
        #expect(model.board == before)
    }

    @Test func aCustomSourceFeedsTheModel() async throws {
        let board = try WatchedBoard()
        let source = HandSource()
        let model = LiveBoardModel(store: board.store, watching: .source(source), options: Self.options)
        defer { model.stop() }
        try await model.start()
        try board.remove("cards/doing/ship-it.md")
        source.report(["cards/doing/ship-it.md"])
        #expect(await eventually { model.board.card(atPath: "cards/doing/ship-it.md") == nil })
    }

    @Test func stoppingEndsEveryStream() async throws {
        let board = try WatchedBoard()
        let source = HandSource()
        let model = LiveBoardModel(store: board.store, watching: .source(source), options: Self.options)
        try await model.start()
        let changes = model.changes()
        model.stop()
        #expect(!model.isFollowing)
        var seen: [String] = []
        for await change in changes {
            if case .stopped(let reason) = change { seen.append(reason == nil ? "stopped" : "failed") }
        }
        #expect(seen == ["stopped"])
        #expect(await eventually { source.stops == 1 })
    }

    @Test func aModelThatGoesAwayStopsItsWatcher() async throws {
        let board = try WatchedBoard()
        let source = HandSource()
        var model: LiveBoardModel? = LiveBoardModel(store: board.store, watching: .source(source), options: Self.options)
        try await model?.start()
        #expect(source.starts == 1)
        model = nil
        #expect(await eventually { source.stops == 1 })
    }

    @Test func losingTheBoardDirectoryStopsTheModel() async throws {
        let board = try WatchedBoard()
        let model = LiveBoardModel(store: board.store, options: Self.options)
        try await model.start()
        let changes = model.changes()
        try board.rename(board.root, board.parent + "/moved")
        let stop = await firstElement(of: changes) { if case .stopped = $0 { true } else { false } }
        guard case .stopped(let reason)? = stop else {
            Issue.record("the model did not stop")
            return
        }
        #expect(reason?.code == .boardNotFound)
        #expect(!model.isFollowing)
        #expect(model.problem != nil)
    }
}
