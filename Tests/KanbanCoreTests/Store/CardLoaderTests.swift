import Foundation
import Testing
@testable import KanbanCore

@Suite struct CardLoaderTests {
    @Test(arguments: [
        ("<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main\n", 1),
        ("---\ntitle: x\n---\n\n<<<<<<< HEAD\n", 5),
        ("a\r\nb\r\n<<<<<<< HEAD\r\n", 3),
        ("a\n<<<<<<<\n", 2),
        ("a\n<<<<<<<", 2),
    ])
    func findsTheLineOfTheFirstConflictMarker(text: String, line: Int) {
        #expect(CardLoader.conflictMarkerLine(in: Array(text.utf8)) == line)
    }

    @Test(arguments: [
        "",
        "no markers at all\n",
        " <<<<<<< HEAD indented\n",
        "text <<<<<<< HEAD in a line\n",
        "<<<<<<<< eight\n",
        "<<<<<< six\n",
        "=======\n>>>>>>> only the other markers\n",
    ])
    func ignoresWhatIsNotAConflictMarker(text: String) {
        #expect(CardLoader.conflictMarkerLine(in: Array(text.utf8)) == nil)
    }

    @Test(arguments: [("conflict-in-body.md", 12), ("conflict-markers.md", 3)])
    func findsTheMarkersInTheFixtures(name: String, line: Int) throws {
        #expect(CardLoader.conflictMarkerLine(in: try Fixtures.cardBytes(name)) == line)
    }

    @Test func loadsManyCardsInParallelKeepingEveryOneAndTheBoardOrder() throws {
        let board = "---\ntitle: Big\ncolumns:\n  - id: todo\n    name: To Do\n---\n"
        try withTemporaryBoard(.boardFile(board, columns: ["todo"])) { board in
            var expected: [(position: String, slug: String)] = []
            for index in 0..<150 {
                let slug = String(format: "card-%03d", index)
                let position = String(format: "k%02d", (index * 37) % 50)  // three cards share each key
                expected.append((position, slug))
                try board.write("---\ntitle: Card \(index)\ncolumn: todo\nposition: \(position)\nlabels: []\n---\n\nBody \(index).\n",
                                to: "cards/todo/\(slug).md")
            }
            try board.write("---\ntitle: Broken\n", to: "cards/todo/broken.md")
            let snapshot = try board.store().load(includeBodies: true)
            let order = expected.sorted { ($0.position, $0.slug) < ($1.position, $1.slug) }.map(\.slug)
            #expect(snapshot.slugs(inColumn: "todo") == order)
            #expect(snapshot.diagnostics.map(\.location.path) == ["cards/todo/broken.md"])
            let bodies = snapshot.cards.compactMap(\.body)
            #expect(bodies.count == 150)
            #expect(snapshot.cards.allSatisfy { $0.body == "Body \($0.title.dropFirst(5)).\n" })
        }
    }
}
