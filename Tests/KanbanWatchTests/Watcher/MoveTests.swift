#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KanbanWatch

extension BoardWatcherTests {
    /// `mv` of card files and column directories, by hand.
    @Suite struct MoveTests {
        @Test(arguments: Mechanism.allCases)
        func mvBetweenColumnsIsMoved(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.rename("cards/todo/fix-login.md", "cards/done/fix-login.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .moved } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["moved fix-login"], "\(events)")
            #expect(events.first?.from == "todo")
            #expect(events.first?.to == "done")
            #expect(events.first?.changes == [], "a plain mv changes no content")
            #expect(events.first?.path == "cards/done/fix-login.md")
            #expect(events.first?.previousPath == "cards/todo/fix-login.md")
        }

        @Test(arguments: Mechanism.allCases)
        func mvWithinAColumnIsRenamed(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.rename("cards/todo/fix-login.md", "cards/todo/fix-login-bug.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .renamed } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["renamed fix-login-bug"], "\(events)")
            #expect(events.first?.from == "fix-login")
            #expect(events.first?.to == "fix-login-bug")
            #expect(events.first?.column == "todo")
        }

        @Test(arguments: Mechanism.allCases)
        func mvOutOfTheBoardIsDeletedAfterAHold(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            // A MOVED_FROM with no MOVED_TO.
            try board.rename("cards/todo/fix-login.md", board.parent + "/fix-login.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .deleted } })
            try board.barrier()
            #expect(board.recorder.cardEvents.summaries == ["deleted fix-login"])
        }

        @Test(arguments: Mechanism.allCases)
        func mvIntoTheBoardIsCreated(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try FileSystemTestSupport.write(WatchedBoard.cardText(title: "From outside", column: "todo"), to: board.parent + "/from-outside.md")
            try board.start(mechanism)
            try board.rename(board.parent + "/from-outside.md", "cards/doing/from-outside.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .created } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["created from-outside"])
            #expect(events.first?.column == "doing")
        }

        @Test(arguments: Mechanism.allCases)
        func mvToTheArchiveAndBack(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.rename("cards/doing/ship-it.md", "archive/2026-02-01-ship-it.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .archived } })
            try board.rename("archive/2026-02-01-ship-it.md", "cards/todo/ship-it.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .unarchived } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["archived ship-it", "unarchived ship-it"], "\(events)")
            #expect(events.first?.from == "doing")
            #expect(events.last?.to == "todo")
        }

        @Test(arguments: Mechanism.allCases)
        func anArchivedCardGivenAnotherDateIsRenamedWithItsSlug(_ mechanism: Mechanism) throws {
            // Issue 14 #7: "from" and "to" of a renamed event are slugs, as the help says, never file names.
            let board = try WatchedBoard()
            try board.rename("cards/doing/ship-it.md", "archive/2026-02-01-ship-it.md")
            try board.start(mechanism)
            try board.rename("archive/2026-02-01-ship-it.md", "archive/2026-03-01-ship-it.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .renamed } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["renamed ship-it"], "\(events)")
            #expect(events.first?.from == "ship-it")
            #expect(events.first?.to == "ship-it")
            #expect(events.first?.previousPath == "archive/2026-02-01-ship-it.md")
            #expect(events.first?.path == "archive/2026-03-01-ship-it.md")
        }

        @Test(arguments: Mechanism.allCases)
        func aMoveThatAlsoEditsIsMatchedBySlug(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            // What a tool does: write the new file, then remove the old one.
            try board.write(WatchedBoard.cardText(title: "fix-login", column: "done", position: "a1"), to: "cards/done/fix-login.md")
            try board.remove("cards/todo/fix-login.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .moved } })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["moved fix-login"], "\(events)")
            #expect(events.first?.changes == [.position, .columnField])
        }

        @Test(arguments: Mechanism.allCases)
        func aNewColumnWithFilesWrittenAtOnceMissesNone(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try FileSystemTestSupport.makeDirectory(board.path("cards/review"))
            for number in 0..<60 {
                try board.write(WatchedBoard.cardText(title: "Review \(number)", column: "review"), to: "cards/review/review-\(number).md")
            }
            #expect(board.recorder.wait { $0.count(of: .created) == 60 })
            try board.barrier()
            let events = board.recorder.cardEvents
            #expect(events.count(of: .columnAdded) == 1)
            #expect(events.first?.kind == .columnAdded, "the column comes before its cards")
            #expect(Set(events.filter { $0.kind == .created }.compactMap(\.slug)) == Set((0..<60).map { "review-\($0)" }))
            #expect(events.count == 61, "no duplicates: \(events.summaries)")

            // Its cards are watched from then on.
            try board.write(WatchedBoard.cardText(title: "Review 7 again", column: "review"), to: "cards/review/review-7.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "review-7" } })
        }

        @Test(arguments: Mechanism.allCases)
        func aColumnDirectoryRenamedWithItsCards(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard(cards: ["todo/a", "todo/b", "todo/c", "doing/d"])
            try board.start(mechanism)
            try board.rename("cards/todo", "cards/later")
            #expect(board.recorder.wait { $0.count(of: .moved) == 3 && $0.count(of: .columnRemoved) == 1 })
            try board.barrier(in: "doing")
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["column-added later", "moved a", "moved b", "moved c", "column-removed todo"], "\(events)")
            #expect(events.filter { $0.kind == .moved }.allSatisfy { $0.from == "todo" && $0.to == "later" })

            // The renamed directory is still watched under its new name.
            try board.write(WatchedBoard.cardText(title: "A again", column: "later"), to: "cards/later/a.md")
            #expect(board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "a" && $0.path == "cards/later/a.md" } })
        }

        @Test(arguments: Mechanism.allCases)
        func aColumnDirectoryRemovedWithItsCards(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard(cards: ["todo/a", "done/x", "done/y"])
            try board.start(mechanism)
            try board.shell("rm -r cards/done")
            #expect(board.recorder.wait { $0.count(of: .deleted) == 2 && $0.count(of: .columnRemoved) == 1 })
            try board.barrier()
            #expect(board.recorder.cardEvents.summaries == ["deleted x", "deleted y", "column-removed done"])
        }
    }
}
