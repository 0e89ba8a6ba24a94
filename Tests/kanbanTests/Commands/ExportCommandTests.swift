import Foundation
import KanbanCore
import Testing

/// `kanban export csv|json`: every card of the board, in board order, with its body, in a form another tool reads.
@Suite struct ExportCommandTests {
    @Test func csvHoldsEveryCardInBoardOrderWithItsBody() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["export", "csv"])
            #expect(result.status == 0, "\(result)")
            let table = try CSVTable(parsing: Array(result.stdout.utf8), path: "stdout")
            let cards = try board.listJSON()
            #expect(table.rows.map { $0[0] } == cards.map(\.slug))
            #expect(table.header.prefix(7) == ["slug", "title", "column", "position", "labels", "created", "modified"])
            #expect(table.header.last == "body")
            let first = try #require(table.rows.first)
            let text = try board.text(cards[0].path)
            #expect(text.hasSuffix(first[table.header.count - 1] + "\n") || text.contains(first[table.header.count - 1]))
            #expect(result.stdout.hasSuffix("\r\n"))
        }
    }

    @Test func jsonIsTheCardsWithTheirBodiesAndAFileIsWrittenWhole() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["export", "json", "--label", "bug", "--all"])
            #expect(result.status == 0, "\(result)")
            let cards = try decodeJSON([JSONValue].self, from: result.stdout)
            #expect(!cards.isEmpty && cards.allSatisfy { $0["labels"]?.arrayValue?.contains(.string("bug")) == true && $0["body"] != nil })
            let written = try board.run(["export", "csv", "--column", "review", "--output", "review.csv"])
            #expect(written.status == 0 && written.stdout == "exported 4 cards to review.csv\n", "\(written)")
            #expect(try CSVTable(parsing: Array(try board.text("review.csv").utf8), path: "review.csv").rows.count == 4)
        }
    }

    @Test(arguments: [(["export", "xml"], 64), (["export", "csv", "--column", "nope"], 1), (["export", "csv", "--label", "nope"], 1),
                      (["export", "csv", "--archived", "--all"], 64)] as [([String], Int32)])
    func badRequestsAreRefused(arguments: [String], status: Int32) throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(arguments)
            #expect(result.status == status, "\(result)")
            #expect(!result.stderr.isEmpty && result.stdout.isEmpty)
        }
    }
}
