import Foundation
import Testing
@testable import KanbanCore

/// WIP limits and queue columns in board.md: read, written so that SimpleKanban still reads the board, and kept by
/// every add, move and unarchive.
@Suite struct WIPLimitTests {
    /// The team board with a limit of 2 on `doing` (and `strict` added to its settings when asked).
    private func withLimitedBoard(strict: Bool = false, _ body: (TemporaryBoard, BoardStore) throws -> Void) throws {
        var text = TemporaryBoard.teamBoardText.replacingOccurrences(of: "    name: Doing\n", with: "    name: Doing\n    wip-limit: 2\n")
        if strict { text = text.replacingOccurrences(of: "title: Team Board\n", with: "title: Team Board\nwip-limits: strict\n") }
        let board = try TemporaryBoard.make(.boardFile(text, columns: ["todo", "doing", "done"]))
        defer { board.remove() }
        try body(board, try board.store())
    }

    @Test func limitsAndQueuesAreReadFromTheColumns() throws {
        let file = try BoardFile(bytes: Array("""
            ---
            title: T
            columns:
              - id: a
                name: A
                wip-limit: 3
                queue: true
              - id: b
                name: B
                wip-limit: "4"
              - id: c
                name: C
                wip-limit: many
              - id: d
                name: D
                wip-limit: 0
            ---
            """.utf8))
        #expect(file.board.columns.map(\.wipLimit) == [3, 4, nil, nil])
        #expect(file.board.columns.map(\.isQueue) == [true, false, false, false])
        #expect(!file.board.refusesOverLimit)
    }

    @Test(arguments: ["1", "100000", " 7 "]) func aLimitInRangeIsALimit(text: String) {
        #expect(Column.wipLimit(from: text) == Int(text.trimmingCharacters(in: .whitespaces)))
    }

    @Test(arguments: ["0", "-1", "100001", "1e3", "1.5", "", "٣", "99999999999999999999"]) func anythingElseIsNoLimit(text: String) {
        #expect(Column.wipLimit(from: text) == nil)
    }

    @Test func settingALimitWritesOneLineAndTheAppStillReadsTheBoard() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let before = try board.text("board.md")
            try store.setColumnLimit("doing", 3)
            try store.setColumnQueue("todo", true)
            let after = try board.text("board.md")
            #expect(after == before.replacingOccurrences(of: "    name: Doing\n", with: "    name: Doing\n    wip-limit: 3\n")
                .replacingOccurrences(of: "    wip: 5\n", with: "    wip: 5\n    queue: true\n"))
            #expect(try store.loadBoard().columns.map(\.wipLimit) == [nil, 3, nil])
            // SimpleKanban reads the same columns as before (a port of its reader).
            let app = try #require(SimpleKanbanApp.board(after))
            #expect(app == SimpleKanbanApp.board(before))
            try store.setColumnLimit("doing", nil)
            try store.setColumnQueue("todo", false)
            #expect(try board.text("board.md") == before)
        }
    }

    @Test func aLimitOutOfRangeIsRefused() throws {
        try withTemporaryBoard(.team) { board in
            let before = try board.text("board.md")
            #expect(throws: KanbanError.self) { try board.store().setColumnLimit("doing", 0) }
            #expect(throws: KanbanError.self) { try board.store().setColumnLimit("nowhere", 2) }
            #expect(try board.text("board.md") == before)
        }
    }

    @Test func addingOrMovingIntoAFullColumnSaysSo() throws {
        try withLimitedBoard { _, store in
            let first = try store.createCard(title: "One", in: "doing")
            #expect(first.overLimit == nil)
            #expect(try store.createCard(title: "Two", in: "doing").overLimit == nil)
            let third = try store.createCard(title: "Three", in: "doing")
            #expect(third.overLimit == WIPLimitExcess(column: "doing", count: 3, limit: 2))
            #expect(third.overLimit?.message == "column 'doing' holds 3 cards, over its WIP limit of 2")
            let waiting = try store.createCard(title: "Four", in: "todo")
            #expect(try store.moveCard(waiting.card!.path, to: "doing").overLimit?.count == 4)
            // Reordering within the column adds nothing to it.
            #expect(try store.moveCard("one", placement: .bottom).overLimit == nil)
            let archived = try store.archiveCard("two")
            #expect(try store.unarchiveCard(archived.card!.path).overLimit?.count == 4)
        }
    }

    @Test func strictLimitsRefuseAndWriteNothing() throws {
        try withLimitedBoard { board, store in
            try store.createCard(title: "One", in: "doing")
            try store.createCard(title: "Two", in: "doing")
            try store.createCard(title: "Waiting", in: "todo")
            let before = try board.snapshot()
            #expect { try store.createCard(title: "Three", in: "doing", strictLimits: true) } throws: { error in
                (error as? KanbanError)?.code == .overLimit
            }
            #expect { try store.moveCard("waiting", to: "doing", strictLimits: true) } throws: { error in
                (error as? KanbanError)?.code == .overLimit
            }
            #expect(try board.snapshot() == before)
            // A move within the full column is no addition.
            #expect(try store.moveCard("two", placement: .top, strictLimits: true).overLimit == nil)
        }
    }

    @Test func aStrictBoardRefusesWhateverTheCallerAsks() throws {
        try withLimitedBoard(strict: true) { board, store in
            #expect(try store.loadBoard().refusesOverLimit)
            try store.createCard(title: "One", in: "doing")
            try store.createCard(title: "Two", in: "doing")
            let before = try board.snapshot()
            #expect { try store.createCard(title: "Three", in: "doing") } throws: { error in
                (error as? KanbanError)?.message.contains("wip-limits: strict") ?? false
            }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func doctorNamesALimitThatIsNoNumber() throws {
        let text = TemporaryBoard.teamBoardText.replacingOccurrences(of: "    name: Doing\n", with: "    name: Doing\n    wip-limit: lots\n")
        let board = try TemporaryBoard.make(.boardFile(text, columns: ["todo", "doing", "done"]))
        defer { board.remove() }
        let diagnostics = try board.store().check()
        let found = try #require(diagnostics.first { $0.code == .invalidWIPLimit })
        #expect(found.location.line == 9, "the column's line")
        #expect(found.message.contains("'lots'"))
    }

    @Test func columnsOverLimitAreCountedInBoardOrder() {
        let board = Board(title: "T", columns: [Column(id: "a", name: "A", wipLimit: 1), Column(id: "b", name: "B"), Column(id: "c", name: "C", wipLimit: 2)])
        #expect(board.columnsOverLimit(counts: ["a": 2, "b": 9, "c": 2]) == [WIPLimitExcess(column: "a", count: 2, limit: 1)])
    }
}
