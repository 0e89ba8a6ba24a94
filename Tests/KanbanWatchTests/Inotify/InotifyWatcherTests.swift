#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Testing
@testable import KanbanWatch

extension BoardWatcherTests {
    /// What inotify adds: its queue can overflow and its limits can be hit. The flood test runs on the polling
    /// watcher too, where it is simply many changes between two passes.
    @Suite struct InotifyWatcherTests {
        @Test(arguments: Mechanism.allCases)
        func aFloodOfChangesWhileTheHandlerIsBlockedLosesAndDuplicatesNothing(_ mechanism: Mechanism) throws {
            let cardCount = 400
            let board = try WatchedBoard(cards: (0..<cardCount).map { "todo/card-\($0)" })
            let gate = DispatchSemaphore(value: 0)
            try board.start(mechanism) { event in
                if event.slug == "blocker" { gate.wait() }
            }
            try board.write(WatchedBoard.cardText(title: "Blocker", column: "doing"), to: "cards/doing/blocker.md")
            #expect(board.recorder.wait { $0.contains { $0.slug == "blocker" } })

            // Enough raw events to overflow the kernel's queue, in an order that the kernel cannot merge.
            let queueLimit = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16_384
            let passes = queueLimit / (cardCount * 2) + 4
            for pass in 0..<passes {
                for number in 0..<cardCount {
                    try board.write(WatchedBoard.cardText(title: "card-\(number)", column: "todo", body: "Version \(pass)."),
                                    to: "cards/todo/card-\(number).md")
                }
            }
            gate.signal()

            #expect(board.recorder.wait(timeout: .seconds(60)) { $0.count(of: .modified) >= cardCount })
            try board.barrier()
            let modified = board.recorder.cardEvents.filter { $0.kind == .modified }
            #expect(modified.count == cardCount, "no duplicates")
            #expect(Set(modified.compactMap(\.slug)) == Set((0..<cardCount).map { "card-\($0)" }), "no loss")
            #expect(modified.allSatisfy { $0.changes == [.body] })
            #expect(board.recorder.cardEvents.count == cardCount + 1, "the blocker and the modifications only")
            if mechanism == .inotify {
                #expect(board.recorder.notices.contains { $0.code == .rescanned }, "the queue overflowed: \(board.recorder.notices)")
            }
        }

        @Test func runningOutOfInotifyInstancesFallsBackToPolling() throws {
            let board = try WatchedBoard()
            try board.start(.inotify, faults: InotifyFaults(initializeError: EMFILE))
            let notice = try #require(board.recorder.notices.first)
            #expect(notice.code == .fallingBackToPolling)
            #expect(notice.message.contains("max_user_instances"), "\(notice.message)")
            try board.write(WatchedBoard.cardText(title: "Seen by polling", column: "todo"), to: "cards/todo/seen-by-polling.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .created && $0.slug == "seen-by-polling" } })
            let watcher = try #require(board.watcher as? InotifyWatcher)
            #expect(watcher.openDescriptors.count == 2, "only the wake pair: the inotify descriptor was never opened")
        }

        @Test func runningOutOfWatchesAtStartFallsBackToPolling() throws {
            let board = try WatchedBoard()
            try board.start(.inotify, faults: InotifyFaults(addWatchError: { $0 == "cards/doing" ? ENOSPC : nil }))
            #expect(board.recorder.waitForNotice { $0.contains { $0.code == .fallingBackToPolling } })
            #expect(board.recorder.notices.first?.message.contains("max_user_watches") == true)
            try board.write(WatchedBoard.cardText(title: "ship-it", column: "doing", body: "Changed."), to: "cards/doing/ship-it.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "ship-it" } })
            let watcher = try #require(board.watcher as? InotifyWatcher)
            #expect(board.recorder.wait { _ in watcher.openDescriptors.count == 2 }, "the inotify descriptor is closed after falling back")
        }

        @Test func runningOutOfWatchesForANewColumnFallsBackToPollingAndLosesNothing() throws {
            let board = try WatchedBoard()
            try board.start(.inotify, faults: InotifyFaults(addWatchError: { $0 == "cards/review" ? ENOSPC : nil }))
            try FileSystemTestSupport.makeDirectory(board.path("cards/review"))
            for number in 0..<20 {
                try board.write(WatchedBoard.cardText(title: "Review \(number)", column: "review"), to: "cards/review/review-\(number).md")
            }
            #expect(board.recorder.waitForNotice { $0.contains { $0.code == .fallingBackToPolling } })
            #expect(board.recorder.wait { $0.count(of: .created) == 20 })
            // Polling from here on: changes anywhere are still seen, once.
            try board.write(WatchedBoard.cardText(title: "Review 3 edited", column: "review"), to: "cards/review/review-3.md")
            try board.rename("cards/todo/fix-login.md", "cards/done/fix-login.md")
            #expect(board.recorder.wait { events in
                events.contains { $0.kind == .modified && $0.slug == "review-3" } && events.contains { $0.kind == .moved }
            })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.count(of: .columnAdded) == 1)
            #expect(events.count == 1 + 20 + 2, "\(events.summaries)")
        }
    }
}
