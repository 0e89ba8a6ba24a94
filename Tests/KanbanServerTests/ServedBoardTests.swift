import Foundation
import KanbanCore
import KanbanWatch
import Testing

@testable import KanbanServer

/// The board `GET /api/board` answers with, kept from events and the server's own changes instead of read whole for
/// each request.
@Suite struct ServedBoardTests {
    private func withStore(_ body: (BoardStore) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let board = Board(title: "Team", columns: [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")])
        try body(try BoardStore.create(at: directory, board: board))
    }

    private func titles(_ served: ServedBoard) throws -> [String: [String]] {
        let kept = try served.current().kept
        return Dictionary(uniqueKeysWithValues: kept.board.columns.map { ($0.id, $0.cards.map(\.title)) })
    }

    @Test func theServersOwnChangesAreFollowedWithoutReadingTheBoardAgain() throws {
        try withStore { store in
            let served = ServedBoard(store: store) { card, body in "\(card.title)|\(body ?? "")" }
            _ = try served.current()
            let added = try store.createCard(title: "Fix login", in: "todo", body: "The form")
            served.follow(added)
            // Written behind the kept board's back: not seen, which shows the board was not read again.
            try "---\ntitle: Sneaked in\n---\n".write(toFile: store.directory + "/cards/todo/sneaked.md", atomically: true, encoding: .utf8)
            #expect(try titles(served)["todo"] == ["Fix login"])
            #expect(try served.current().kept.cards[added.card!.path] == "Fix login|The form")

            let moved = try store.moveCard("fix-login", to: "done")
            served.follow(moved)
            #expect(try titles(served)["done"] == ["Fix login"])
            #expect(try served.current().kept.cards["cards/todo/fix-login.md"] == nil)

            // A change of board.md is not followed card by card: the board is read again, the sneaked card with it.
            served.follow(try store.addColumn(id: "doing", name: "Doing"))
            #expect(try titles(served)["todo"] == ["Sneaked in"])
            #expect(try titles(served)["doing"] == [])
        }
    }

    @Test func anAnswerMadeWhileTheBoardChangedIsNotKept() throws {
        try withStore { store in
            let served = ServedBoard(store: store) { card, _ in card.title }
            let (_, generation) = try served.current()
            served.follow(try store.createCard(title: "Later", in: "todo"))
            served.keep(answer: "stale", for: generation)
            #expect(try served.current().kept.answer == nil)
            let (_, now) = try served.current()
            served.keep(answer: "fresh", for: now)
            #expect(try served.current().kept.answer == "fresh")
        }
    }
}
