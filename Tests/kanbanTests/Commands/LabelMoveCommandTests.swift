import Foundation
import Testing

/// `kanban label move`: the order labels are listed in, as the page's settings drag them (issue 36: the command line
/// lacked it).
@Suite struct LabelMoveCommandTests {
    private func order(_ board: TemporaryBoard) throws -> [String] {
        try board.run(["label", "list"]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func movesALabelAndChangesOnlyTheLabelsBlock() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try order(board) == LabelCommandTests.sampleLabels)
            let before = try board.text("board.md")
            let moved = try board.run(["label", "move", "docs", "--first"])
            #expect(moved.status == 0, "\(moved)")
            #expect(moved.stdout == "moved label docs to position 1 of 6\n")
            #expect(try order(board) == ["docs", "feature", "bug", "design", "infra", "marketing"])
            #expect(try board.run(["label", "move", "docs", "--after", "marketing"]).status == 0)
            #expect(try order(board).last == "docs")
            #expect(try board.run(["label", "move", "docs", "--to", "4"]).status == 0)
            #expect(try order(board) == LabelCommandTests.sampleLabels)
            #expect(try board.text("board.md") == before)
        }
    }

    @Test func refusesWhatItCannotDo() throws {
        try withTemporaryBoard(.sample) { board throws in
            let unknown = try board.run(["label", "move", "nope", "--first"])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no label 'nope'"))
            let far = try board.run(["label", "move", "bug", "--to", "99"])
            #expect(far.status == 1)
            #expect(far.stderr.contains("out of range: use 1 to 6"))
            let nowhere = try board.run(["label", "move", "bug"])
            #expect(nowhere.status == 64, "\(nowhere)")
            let already = try board.run(["label", "move", "feature", "--first"])
            #expect(already.stdout == "label feature is already at position 1 of 6\n")
        }
    }
}
