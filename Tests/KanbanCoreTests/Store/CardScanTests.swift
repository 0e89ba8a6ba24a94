import Foundation
import KanbanTestSupport
import Synchronization
import Testing
@testable import KanbanCore

/// The parallel loader sorts small keys instead of cards; these check that the order it gives is the board order
/// ``Card/precedes(_:_:)`` defines, whatever the keys look like.
@Suite struct CardScanTests {
    private static let board = """
        ---
        title: Sorting
        columns:
          - id: todo
            name: To Do
          - id: done
            name: Done
        ---

        """

    /// Positions that stress the eight-byte prefix: shared prefixes longer than eight bytes, keys that are prefixes
    /// of others, equal keys (ties by slug), bytes above ASCII, and no position at all.
    private static func position(_ generator: inout SeededGenerator) -> String? {
        let stems = ["a", "a1", "a10", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefgh0", "n", "zz", "é", "e\u{301}"]
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return nil
        case 1...4: return stems.randomElement(using: &generator)!
        default:
            let tail = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                "0aAzZ9~".randomElement(using: &generator)!
            }
            return stems.randomElement(using: &generator)! + String(tail)
        }
    }

    /// A card file removed after the directory was listed and before it was read is not on the board, as if the
    /// listing had come after: no warning, no stand-in (which `kanban tui` showed, at the column's end, and handed
    /// the selection from; its test timed out now and then). Files flicker in and out while loads run.
    @Test func aFileRemovedWhileTheBoardLoadsIsSimplyGone() throws {
        try withTemporaryBoard(.boardFile(Self.board, columns: ["todo", "done"])) { board in
            for index in 0..<200 { try board.write("---\ntitle: Card \(index)\ncolumn: todo\n---\n", to: "cards/todo/card-\(index).md") }
            let store = try board.store()
            let flickering = (0..<8).map { board.path + "/cards/todo/flicker-\($0).md" }
            let text = Array("---\ntitle: Flicker\ncolumn: todo\n---\n".utf8)
            let stop = Atomic<Bool>(false)
            let flicker = Thread {
                while !stop.load(ordering: .relaxed) {
                    for path in flickering {
                        FileManager.default.createFile(atPath: path, contents: Data(text))
                        unlink(path)
                    }
                }
            }
            flicker.start()
            defer { stop.store(true, ordering: .relaxed) }
            for _ in 0..<400 {
                let snapshot = try store.load()
                let warned = snapshot.diagnostics.filter { $0.location.path.contains("flicker") }
                #expect(warned.isEmpty, "\(warned)")
                #expect(!snapshot.cards.contains { $0.slug.hasPrefix("flicker") && $0.title != "Flicker" })
                if !warned.isEmpty { break }
            }
        }
    }

    @Test(arguments: [1, 2, 3])
    func loadsEveryColumnInTheOrderCardPrecedesGives(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        try withTemporaryBoard(.boardFile(Self.board, columns: ["todo", "done"])) { board in
            for index in 0..<400 {
                let column = index % 3 == 0 ? "done" : "todo"
                let slug = "card-\(Int.random(in: 0..<100_000, using: &generator))-\(index)"
                var head = "---\ntitle: Card \(index)\ncolumn: \(column)\n"
                if let position = Self.position(&generator) { head += "position: \"\(position)\"\n" }
                try board.write(head + "---\n", to: "cards/\(column)/\(slug).md")
            }
            for index in 0..<40 {
                let day = 10 + index % 20
                try board.write("---\ntitle: Old \(index)\ncolumn: todo\n---\n", to: "archive/2026-01-\(day)-old-\(index).md")
            }
            try board.write("---\ntitle: Unclosed\n", to: "cards/todo/broken.md")

            let snapshot = try board.store().load(.all)
            for column in ["todo", "done"] {
                let cards = snapshot.cards(inColumn: column)
                #expect(cards.count == (column == "todo" ? 266 : 134))
                #expect(zip(cards, cards.dropFirst()).allSatisfy { Card.precedes($0, $1) }, "\(column) is out of order")
            }
            let archived = snapshot.cards.filter(\.isArchived)
            #expect(archived.map(\.path) == archived.map(\.path).sorted { $0.utf8Precedes($1) })
            #expect(archived.count == 40)
            #expect(snapshot.cards.map(\.column) == Array(repeating: "todo", count: 266) + Array(repeating: "done", count: 134)
                    + Array(repeating: "todo", count: 40))
            #expect(snapshot.diagnostics.map(\.location.path) == ["cards/todo/broken.md"])
        }
    }

    @Test func aColumnFilterKeepsOnlyTheArchivedCardsFromThoseColumns() throws {
        try withTemporaryBoard(.boardFile(Self.board, columns: ["todo", "done"])) { board in
            try board.write("---\ntitle: A\nposition: a1\n---\n", to: "cards/todo/a.md")
            try board.write("---\ntitle: B\nposition: a1\n---\n", to: "cards/done/b.md")
            try board.write("---\ntitle: C\ncolumn: done\n---\n", to: "archive/2026-01-01-c.md")
            try board.write("---\ntitle: D\ncolumn: todo\n---\n", to: "archive/2026-01-02-d.md")
            let snapshot = try board.store().load(.all, columns: ["done"])
            #expect(snapshot.cards.map(\.slug) == ["b", "c"])
        }
    }

    @Test func aLargeCardIsReadWhole() throws {
        try withTemporaryBoard(.boardFile(Self.board, columns: ["todo", "done"])) { board in
            let body = String(repeating: "A line of a very long card body.\n", count: 20_000)  // 660 KB: many reads
            try board.write("---\ntitle: Long\nposition: a1\n---\n\n" + body, to: "cards/todo/long.md")
            let snapshot = try board.store().load(includeBodies: true)
            #expect(snapshot.cards.first?.body == body)
        }
    }

    /// A file is read into a 64 KiB buffer when it fits; these sizes fit exactly, miss by one, or need many reads.
    @Test(arguments: [65_535, 65_536, 65_537, 200_000])
    func aCardOfAnySizeIsLoadedAndSearchedWhole(size: Int) throws {
        try withTemporaryBoard(.boardFile(Self.board, columns: ["todo", "done"])) { board in
            let head = "---\ntitle: Sized\nposition: a1\n---\n\n"
            let tail = "\nneedle at the end"
            let filler = String(repeating: "x", count: size - head.utf8.count - tail.utf8.count)
            try board.write(head + filler + tail, to: "cards/todo/sized.md")
            let store = try board.store()
            #expect(try store.load(includeBodies: true).cards.first?.body == filler + tail)
            let hits = try store.search(CardQuery(parsing: "needle")).hits
            #expect(hits.map(\.match.line) == ["needle at the end"])
            #expect(hits.first?.match.lineNumber == 2)
        }
    }

    @Test func chunksCoverEveryFileOnceAndNeverSpanTwoDirectories() {
        let counts = [0, 5, 1_000, 17, 40_000]
        let bases = counts.reduce(into: [0]) { $0.append($0.last! + $1) }
        let chunks = CardScan<Void, Card>.chunks(counts, bases: Array(bases.dropLast()))
        var covered = Array(repeating: 0, count: bases.last!)
        for chunk in chunks {
            #expect(chunk.files.upperBound <= counts[chunk.source])
            for index in chunk.files { covered[chunk.base + index - chunk.files.lowerBound] += 1 }
        }
        #expect(covered.allSatisfy { $0 == 1 })
        #expect(bases.dropLast().enumerated().allSatisfy { source, base in
            counts[source] == 0 || chunks.contains { $0.source == source && $0.base == base }
        })
    }
}
