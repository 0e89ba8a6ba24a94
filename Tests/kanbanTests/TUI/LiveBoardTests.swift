import Foundation
import KanbanCore
import KanbanWatch
import Testing

@testable import kanban

@Suite struct LiveBoardTests {
    @Test func holdsTheColumnsKanbanBoardShows() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write("---\ntitle: Someday\n---\n", to: "cards/later/someday.md")
            try FileManager.default.createDirectory(atPath: board.absolute("cards/empty"), withIntermediateDirectories: true)
            let (_, live) = try liveBoard(of: board)
            #expect(live.columns.map(\.id) == ["backlog", "todo", "in-progress", "review", "done", "later"])
            #expect(live.columns[0].isCollapsed)
            #expect(live.columns.last?.isDeclared == false)
            #expect(live.slugs("todo").first == "notarize-and-sign-the-macos-build")
            #expect(live.cardCount == 26)
        }
    }

    @Test func followsTheStoresChangesInBoardOrder() throws {
        try withTemporaryBoard(.sample) { board in
            var (store, live) = try liveBoard(of: board)
            let moved = try store.moveCard("notarize", to: "done", placement: .after("beta-1"))
            live.apply(moved)
            #expect(moved.writtenPaths.count == 2, "the move re-keys a neighbour: \(moved.writtenPaths)")
            for path in moved.writtenPaths.dropFirst() { live.update(try store.card(path)) }
            live.apply(try store.createCard(title: "Brand new", in: "review", placement: .top))
            live.apply(try store.archiveCard("press-kit"))
            live.apply(try store.updateCard("new-app-icon", CardUpdate(title: "Newer app icon")))
            live.apply(try store.deleteCard("windows-arm64"))
            let fresh = LiveBoard(snapshot: try store.load())
            #expect(live.columns == fresh.columns)
            #expect(live.slugs("done").contains("notarize-and-sign-the-macos-build"))
            #expect(live.slugs("review").first == "brand-new")
        }
    }

    @Test func followsTheWatchersEvents() throws {
        try withTemporaryBoard(.sample) { board in
            var (store, live) = try liveBoard(of: board)
            let moved = try store.moveCard("notarize", to: "review", placement: .top)
            #expect(live.apply(WatchEvent(.moved, slug: "notarize-and-sign-the-macos-build", path: moved.card?.path,
                                          previousPath: moved.previous?.path, card: moved.card)) == .applied)
            let deleted = try store.deleteCard("new-app-icon")
            #expect(live.apply(WatchEvent(.deleted, path: deleted.previous?.path)) == .applied)
            let archived = try store.archiveCard("press-kit")
            #expect(live.apply(WatchEvent(.archived, path: archived.card?.path, previousPath: archived.previous?.path,
                                          card: archived.card)) == .applied)
            #expect(live.columns == LiveBoard(snapshot: try store.load()).columns)
            #expect(live.slugs("review").first == "notarize-and-sign-the-macos-build")
        }
    }

    @Test func aFileThatNoLongerParsesStaysInItsPlaceAndIsNamed() throws {
        try withTemporaryBoard(.sample) { board in
            var (_, live) = try liveBoard(of: board)
            let path = "cards/todo/press-kit-and-screenshots.md"
            let before = live.slugs("todo")
            let event = WatchEvent(.invalid, path: path, message: "flow list '[' is not closed",
                                   location: SourceLocation(path: path, line: 3, column: 9))
            #expect(live.apply(event) == .applied)
            #expect(live.card(atPath: path)?.title == "Press kit and screenshots")
            #expect(live.slugs("todo") == before)
            #expect(live.problems[path] != nil)
            #expect(live.problems[path] == "\(path):3:9: flow list '[' is not closed")
        }
    }

    /// Issue 20 #8: a card unreadable when the board is loaded is shown too, under its file name, so that it can be
    /// opened and fixed.
    @Test func aCardUnreadableAtLoadIsShownInItsColumn() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write("---\ntitle: Broken\nlabels: [design, marketing\n---\n", to: "cards/todo/broken-card.md")
            let (_, live) = try liveBoard(of: board)
            let card = try #require(live.card(atPath: "cards/todo/broken-card.md"))
            #expect(card.title == "broken-card.md")
            #expect(live.slugs("todo").last == "broken-card")
            #expect(live.problems[card.path] != nil)
        }
    }

    @Test func boardAndColumnChangesAskForANewSnapshot() throws {
        try withTemporaryBoard(.sample) { board in
            var (_, live) = try liveBoard(of: board)
            #expect(live.apply(WatchEvent(.board, path: "board.md")) == .needsReload)
            #expect(live.apply(WatchEvent(.columnAdded, column: "later", path: "cards/later")) == .needsReload)
            #expect(live.apply(WatchEvent(.rootLost, path: board.path, message: "gone")) == .rootLost("gone"))
        }
    }
}
