import Foundation
import Testing
@testable import KanbanCore

/// Changes through the store rewrite only the lines they must: every other byte of a card file is kept, CRLF, BOM,
/// final newline or its absence, comments, unknown keys and quoting included.
@Suite struct CardRoundTripTests {
    /// The parseable fixtures that have frontmatter with `title`, `column`, `position` and `modified` lines.
    static let fixtures = [
        "simplekanban.md", "simplekanban-empty-body.md", "trailing-newline.md", "crlf.md", "bom.md", "bom-crlf.md",
        "quoted-title.md", "single-quoted.md", "hash-title.md", "extra-keys.md", "block-list-labels.md", "nested.md",
        "literal-block.md", "offsets.md", "conflict-in-body.md", "yaml11-traps.md", "long-key.md",
    ]

    /// Runs `body` with the fixture at `cards/todo/<name>` of a copy of the SimpleKanban board.
    private func withFixture(_ name: String, _ body: (TemporaryBoard, BoardStore, [UInt8]) throws -> Void) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let bytes = try Fixtures.cardBytes(name)
            try board.write(bytes, to: "cards/todo/\(name)")
            try body(board, try board.store(), bytes)
        }
    }

    /// The 0-based index of the line that sets `key` (a BOM before the first line is ignored).
    private func lineIndex(of key: String, in lines: [String]) throws -> Int {
        try #require(lines.firstIndex { $0.replacingOccurrences(of: "\u{FEFF}", with: "").hasPrefix("\(key):") })
    }

    /// What ends each line of the file: `\r` for CRLF files (the lines are split at LF).
    private func lineEnd(_ lines: [String]) -> String {
        lines.first?.hasSuffix("\r") == true ? "\r" : ""
    }

    private func changedLines(_ old: [String], _ new: [String]) -> Set<Int> {
        Set(zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset))
    }

    @Test(arguments: CardFileTests.mustParse)
    func theDocumentTheStoreReadsWritesTheSameBytes(name: String) throws {
        let bytes = try Fixtures.cardBytes(name)
        let (_, document) = try CardReader.read(bytes, file: CardFile.active(name: name, column: "todo"), includeBody: true)
        #expect(document.bytes() == bytes)
    }

    @Test(arguments: CardRoundTripTests.fixtures)
    func changingTheTitleRewritesOnlyTheTitleAndModifiedLines(name: String) throws {
        try withFixture(name) { board, store, original in
            try store.updateCard("cards/todo/\(name)", CardUpdate(title: "Renamed by the test"))
            let old = lines(of: original)
            let new = lines(of: try board.bytes("cards/todo/\(name)"))
            #expect(new.count == old.count)
            let title = try lineIndex(of: "title", in: old)
            let modified = try lineIndex(of: "modified", in: old)
            #expect(changedLines(old, new) == [title, modified])
            let end = lineEnd(old)
            // A title is written as SimpleKanban writes it: plain when it needs no quotes,
            // whatever quotes the old one had.
            #expect(new[title] == "title: Renamed by the test" + end)
            #expect(new[modified] == "modified: \(fixedNowText)" + end)
            let card = try store.card("cards/todo/\(name)")
            #expect(card.title == "Renamed by the test")
            #expect(card.modified == fixedNow)
        }
    }

    @Test(arguments: CardRoundTripTests.fixtures)
    func changingTheTitleKeepsEveryOtherValue(name: String) throws {
        try withFixture(name) { _, store, _ in
            let before = try store.card("cards/todo/\(name)")
            try store.updateCard("cards/todo/\(name)", CardUpdate(title: "Renamed by the test"))
            let after = try store.card("cards/todo/\(name)")
            #expect(after.labels == before.labels)
            #expect(after.position == before.position)
            #expect(after.created == before.created)
            #expect(after.columnField == before.columnField)
            #expect(after.fields == before.fields)
            #expect(after.body == before.body)
        }
    }

    @Test(arguments: CardRoundTripTests.fixtures)
    func movingRewritesOnlyTheColumnPositionAndModifiedLines(name: String) throws {
        try withFixture(name) { board, store, original in
            let change = try store.moveCard("cards/todo/\(name)", to: "done")
            #expect(change.card?.path == "cards/done/\(name)")
            let old = lines(of: original)
            let new = lines(of: try board.bytes("cards/done/\(name)"))
            #expect(new.count == old.count)
            let column = try lineIndex(of: "column", in: old)
            let position = try lineIndex(of: "position", in: old)
            let modified = try lineIndex(of: "modified", in: old)
            #expect(changedLines(old, new).isSubset(of: [column, position, modified]))
            #expect(changedLines(old, new).contains(modified))
            #expect(changedLines(old, new).contains(column) == (old[column] != "column: done" + lineEnd(old)))
            let end = lineEnd(old)
            #expect(new[column] == "column: done" + end)
            #expect(new[modified] == "modified: \(fixedNowText)" + end)
            #expect(new[position].hasSuffix(end))
        }
    }

    @Test(arguments: ["simplekanban.md", "crlf.md", "bom.md", "bom-crlf.md", "extra-keys.md"])
    func addingALabelRewritesOnlyTheLabelsAndModifiedLines(name: String) throws {
        try withFixture(name) { board, store, original in
            let before = try store.card("cards/todo/\(name)").labels
            try store.updateCard("cards/todo/\(name)", CardUpdate(addedLabels: ["bug"]))
            let old = lines(of: original)
            let new = lines(of: try board.bytes("cards/todo/\(name)"))
            let labels = try lineIndex(of: "labels", in: old)
            let modified = try lineIndex(of: "modified", in: old)
            #expect(changedLines(old, new) == [labels, modified])
            #expect(new[labels] == "labels: [\((before + ["bug"]).joined(separator: ", "))]" + lineEnd(old))
        }
    }

    /// Archiving keeps every byte of the card but its `modified` line, which records when it was archived (a sync
    /// then tells an archive made after someone else's move from one made before it).
    @Test func archivingKeepsEveryByteButTheModifiedLine() throws {
        for name in CardFileTests.mustParse where !name.hasPrefix("no-frontmatter") {
            try withFixture(name) { board, store, original in
                try store.archiveCard("cards/todo/\(name)")
                let old = lines(of: original)
                let new = lines(of: try board.bytes("archive/2026-05-28-\(name)"))
                let stamp = "modified: \(fixedNowText)" + lineEnd(old)
                if let modified = old.firstIndex(where: { $0.hasPrefix("modified:") }) {
                    #expect(changedLines(old, new).isSubset(of: [modified]), "\(name)")
                    #expect(new.count == old.count && new[modified] == stamp, "\(name)")
                } else {
                    // A card without `modified` gets one, as a new last key; nothing else changes.
                    var kept = new
                    let added = try #require(kept.firstIndex(of: stamp), "\(name)")
                    kept.remove(at: added)
                    #expect(kept == old, "\(name)")
                }
            }
        }
    }
}
