#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KanbanCore
import Synchronization
import Testing
@testable import KanbanWatch

/// Watchers on real boards in temporary directories, each test run on the inotify and the polling watcher.
///
/// Serialized (with every suite nested in it): watchers are timing-sensitive and the tests check that
/// descriptors are closed, which parallel tests opening their own would blur.
@Suite(.serialized) struct BoardWatcherTests {
    @Test(arguments: Mechanism.allCases)
    func reportsCreatedModifiedAndDeletedCards(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)

        try board.write(WatchedBoard.cardText(title: "New card", column: "todo"), to: "cards/todo/new-card.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .created && $0.slug == "new-card" } })
        let created = try #require(board.recorder.events.first { $0.slug == "new-card" })
        #expect(created.title == "New card")
        #expect(created.column == "todo")
        #expect(created.path == "cards/todo/new-card.md")

        try board.write(WatchedBoard.cardText(title: "Renamed title", column: "todo"), to: "cards/todo/new-card.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "new-card" } })
        let modified = try #require(board.recorder.events.first { $0.kind == .modified })
        #expect(modified.changes == [.title])
        #expect(modified.title == "Renamed title")

        try board.remove("cards/todo/new-card.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .deleted && $0.slug == "new-card" } })
        let deleted = try #require(board.recorder.events.first { $0.kind == .deleted })
        #expect(deleted.title == "Renamed title", "a deleted card keeps its last title")
        try board.barrier()
        #expect(board.recorder.cardEvents.summaries == ["created new-card", "modified new-card", "deleted new-card"])
    }

    @Test(arguments: Mechanism.allCases)
    func touchingWithoutChangingReportsNothing(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        let text = try board.text("cards/todo/fix-login.md")
        // A new mtime in the future, the same bytes written again, and a chmod: no content change.
        try FileSystemTestSupport.setTimes(board.path("cards/todo/fix-login.md"), seconds: Int(Date().timeIntervalSince1970) + 86_400)
        try board.write(text, to: "cards/todo/write-docs.md.tmp")
        try board.write(try board.text("cards/todo/write-docs.md"), to: "cards/todo/write-docs.md")
        try FileSystemTestSupport.check(chmod(board.path("cards/doing/ship-it.md"), 0o600), "chmod")
        try board.barrier()
        #expect(board.recorder.cardEvents.isEmpty, "\(board.recorder.cardEvents)")
    }

    @Test(arguments: Mechanism.allCases)
    func modifiedSaysWhichPartsChanged(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        let cases: [(String, WatchEvent.Changes)] = [
            (WatchedBoard.cardText(title: "fix-login", column: "todo", labels: "[bug]"), [.labels]),
            (WatchedBoard.cardText(title: "fix-login", column: "todo", position: "a1", labels: "[bug]"), [.position]),
            (WatchedBoard.cardText(title: "fix-login", column: "todo", position: "a1", labels: "[bug]", body: "New body."), [.body]),
            (WatchedBoard.cardText(title: "fix-login", column: "todo", position: "a1", labels: "[bug]", body: "New body.")
                .replacingOccurrences(of: "labels: [bug]", with: "labels: [bug]\ndue: 2026-02-01"), [.fields]),
            (WatchedBoard.cardText(title: "fix-login", column: "todo", position: "a1", labels: "[bug]", body: "New body.")
                .replacingOccurrences(of: "labels: [bug]", with: "labels: [bug]\ndue: 2026-02-01")
                .replacingOccurrences(of: "modified: 2026-01-05T10:00:00Z", with: "modified: 2026-01-06T10:00:00Z"), [.timestamps]),
            (WatchedBoard.cardText(title: "fix-login", column: "todo", position: "a1", labels: "[bug]", body: "New body.")
                .replacingOccurrences(of: "labels: [bug]", with: "labels: [bug]\ndue: 2026-02-01")
                .replacingOccurrences(of: "modified: 2026-01-05T10:00:00Z", with: "modified: 2026-01-06T10:00:00Z")
                .replacingOccurrences(of: "title: fix-login", with: "title: \"fix-login\""), [.formatting]),
        ]
        for (number, (text, changes)) in cases.enumerated() {
            try board.write(text, to: "cards/todo/fix-login.md")
            let seen = board.recorder.wait { $0.filter { $0.kind == .modified }.count == number + 1 }
            try #require(seen, "change \(number) was not reported")
            #expect(board.recorder.events.filter { $0.kind == .modified }.last?.changes == changes, "change \(number)")
        }
        try board.barrier()
        #expect(board.recorder.cardEvents.count == cases.count, "\(board.recorder.cardEvents)")
    }

    @Test(arguments: Mechanism.allCases)
    func aCardThatNoLongerParsesIsInvalidWithItsLine(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        try board.write("---\ntitle: Broken\nlabels: [bug\n", to: "cards/todo/fix-login.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .invalid } })
        let invalid = try #require(board.recorder.events.first { $0.kind == .invalid })
        #expect(invalid.slug == "fix-login")
        #expect(invalid.path == "cards/todo/fix-login.md")
        #expect(invalid.location?.path == "cards/todo/fix-login.md")
        #expect(invalid.location?.line != nil, "the location has a line: \(String(describing: invalid.location))")
        #expect(!(invalid.message ?? "").isEmpty)

        // Fixed again: modified, compared with the card as it was before it broke.
        try board.write(WatchedBoard.cardText(title: "Fixed", column: "todo"), to: "cards/todo/fix-login.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .modified } })
        #expect(board.recorder.events.last { $0.kind == .modified }?.changes == [.title])
        try board.barrier()
        #expect(board.recorder.cardEvents.summaries == ["invalid fix-login", "modified fix-login"])
    }

    @Test(arguments: Mechanism.allCases)
    func boardFileChangesAreReported(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        try board.write(WatchedBoard.boardText.replacingOccurrences(of: "title: Watched", with: "title: Renamed board"), to: "board.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .board } })
        let event = try #require(board.recorder.events.first { $0.kind == .board })
        #expect(event.changes == [.title])
        #expect(event.path == "board.md")
        #expect(event.title == "Renamed board")

        try board.write("---\ntitle: [unclosed\n---\n", to: "board.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .invalid && $0.path == "board.md" } })
    }

    @Test(arguments: Mechanism.allCases)
    func initialStateIsReportedAsCreated(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.write("---\ntitle: broken\n", to: "cards/done/broken.md")
        try board.start(mechanism, initial: true)
        let expected = ["created fix-login", "created write-docs", "created ship-it", "created old-news", "invalid broken"]
        #expect(board.recorder.wait { $0.count >= expected.count })
        #expect(Set(board.recorder.events.summaries) == Set(expected))
        try board.barrier()
        #expect(board.recorder.cardEvents.count == expected.count, "\(board.recorder.cardEvents)")
    }

    @Test(arguments: Mechanism.allCases)
    func withoutInitialStateStartingReportsNothing(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        try board.barrier()
        #expect(board.recorder.cardEvents.isEmpty, "\(board.recorder.cardEvents)")
    }

    @Test(arguments: Mechanism.allCases)
    func copyingAnOlderSameSizeFileAndFutureTimesAreSeen(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        let original = try board.text("cards/todo/fix-login.md")
        let sameSize = original.replacingOccurrences(of: "Body.", with: "Bod2.")
        #expect(sameSize.utf8.count == original.utf8.count)
        let older = board.parent + "/older.md"
        try FileSystemTestSupport.write(sameSize, to: older)
        try FileSystemTestSupport.setTimes(older, seconds: 1_500_000_000)
        try board.start(mechanism)

        try board.shell("cp -p '\(older)' cards/todo/fix-login.md")
        #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "fix-login" } })
        #expect(board.recorder.events.first { $0.kind == .modified }?.changes == [.body])

        // A file given a future mtime, then rewritten with other bytes of the same size and the same mtime.
        let future = Int(Date().timeIntervalSince1970) + 3_600
        try FileSystemTestSupport.setTimes(board.path("cards/todo/write-docs.md"), seconds: future)
        try board.barrier()
        let docs = try board.text("cards/todo/write-docs.md").replacingOccurrences(of: "Body.", with: "Bod3.")
        try board.write(docs, to: "cards/todo/write-docs.md")
        try FileSystemTestSupport.setTimes(board.path("cards/todo/write-docs.md"), seconds: future)
        #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "write-docs" } })
        try board.barrier()
        #expect(board.recorder.cardEvents.summaries == ["modified fix-login", "modified write-docs"])
    }

    @Test(arguments: Mechanism.allCases)
    func theStoresOwnOperationsAreOneEventEach(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        try board.store.moveCard("fix-login", to: "done")
        #expect(board.recorder.wait { $0.contains { $0.kind == .moved } })
        let moved = try #require(board.recorder.events.first { $0.kind == .moved })
        #expect(moved.from == "todo")
        #expect(moved.to == "done")
        #expect(moved.column == "done")
        #expect(moved.previousPath == "cards/todo/fix-login.md")
        #expect(moved.changes.contains(.columnField))

        _ = try board.store.archiveCard("ship-it")
        #expect(board.recorder.wait { $0.contains { $0.kind == .archived } })
        let archived = try #require(board.recorder.events.first { $0.kind == .archived })
        #expect(archived.from == "doing")
        #expect(archived.column == "doing")
        #expect(archived.path?.hasPrefix("archive/") == true)

        _ = try board.store.unarchiveCard("ship-it", to: "todo")
        #expect(board.recorder.wait { $0.contains { $0.kind == .unarchived } })
        #expect(board.recorder.events.first { $0.kind == .unarchived }?.to == "todo")

        _ = try board.store.createCard(title: "Added by the store", in: "doing")
        _ = try board.store.updateCard("write-docs", CardUpdate(title: "Write the docs"))
        try board.barrier()
        #expect(board.recorder.cardEvents.summaries == [
            "moved fix-login", "archived ship-it", "unarchived ship-it", "created added-by-the-store", "modified write-docs",
        ])
    }

    @Test(arguments: Mechanism.allCases)
    func losingTheBoardDirectoryIsReportedAndStopsTheWatcher(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        try board.start(mechanism)
        try board.rename(board.root, board.parent + "/moved-away")
        #expect(board.recorder.wait { $0.contains { $0.kind == .rootLost } })
        let watcher = try #require(board.watcher)
        let start = ContinuousClock.now
        watcher.waitUntilStopped()
        #expect(ContinuousClock.now - start < generousTimeout)
    }

    @Test(arguments: Mechanism.allCases)
    func stopReturnsPromptlyAndClosesEverything(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        for _ in 0..<5 {
            let recorder = EventRecorder()
            let watcher: any BoardWatcher
            var descriptors: [Int32] = []
            switch mechanism {
            case .inotify:
                let inotify = InotifyWatcher(store: board.store, options: WatchOptions(), faults: InotifyFaults(),
                                             onNotice: { recorder.record($0) }, onEvent: { recorder.record($0) })
                try inotify.start()
                descriptors = inotify.openDescriptors
                #expect(descriptors.count == 3, "inotify and the wake pair: \(descriptors)")
                watcher = inotify
            case .polling:
                let polling = PollingWatcher(store: board.store, onNotice: { recorder.record($0) }, onEvent: { recorder.record($0) })
                try polling.start()
                descriptors = polling.openDescriptors
                #expect(descriptors.count == 2, "the wake pair: \(descriptors)")
                watcher = polling
            }
            let targets = descriptors.map { SystemCalls.descriptorTarget($0) }
            let start = ContinuousClock.now
            watcher.stop()
            #expect(ContinuousClock.now - start < .seconds(2), "stop() took \(ContinuousClock.now - start)")
            switch mechanism {
            case .inotify: #expect((watcher as? InotifyWatcher)?.openDescriptors.isEmpty == true)
            case .polling: #expect((watcher as? PollingWatcher)?.openDescriptors.isEmpty == true)
            }
            for (descriptor, target) in zip(descriptors, targets) {
                // Closed, or (if another test reused the number meanwhile) no longer the watcher's.
                #expect(!SystemCalls.isOpen(descriptor) || SystemCalls.descriptorTarget(descriptor) != target,
                        "descriptor \(descriptor) (\(target ?? "?")) is still open")
            }
            watcher.stop()  // a second stop is harmless
        }
    }

    @Test(arguments: Mechanism.allCases)
    func stoppingFromInsideTheEventHandlerDoesNotDeadlock(_ mechanism: Mechanism) throws {
        let board = try WatchedBoard()
        let box = WatcherBox()
        try board.start(mechanism) { _ in box.watcher?.stop() }
        box.watcher = board.watcher
        try board.write(WatchedBoard.cardText(title: "Stop", column: "todo"), to: "cards/todo/stop.md")
        let watcher = try #require(board.watcher)
        let start = ContinuousClock.now
        watcher.waitUntilStopped()
        #expect(ContinuousClock.now - start < generousTimeout)
    }
}

/// Lets an event handler reach the watcher it belongs to.
final class WatcherBox: Sendable {
    private let value = Mutex<(any BoardWatcher)?>(nil)

    var watcher: (any BoardWatcher)? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
