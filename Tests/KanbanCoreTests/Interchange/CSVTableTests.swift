import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// CSV as RFC 4180 writes it, read back field for field, and what is not CSV refused at its place.
@Suite struct CSVTableTests {
    @Test func readsQuotesCommasLineBreaksCRLFAndABOM() throws {
        let text = "\u{FEFF}title,column,body\r\n\"Fix, now\",todo,\"line one\r\nline \"\"two\"\"\"\r\nPlain,done,\r\n\r\n"
        let table = try CSVTable(parsing: Array(text.utf8), path: "cards.csv")
        #expect(table.header == ["title", "column", "body"])
        #expect(table.rows == [["Fix, now", "todo", "line one\r\nline \"two\""], ["Plain", "done", ""]])
        #expect(table.value("COLUMN", in: table.rows[1]) == "done")
        let lf = try CSVTable(parsing: Array("a,b\n1,2".utf8), path: "x.csv")
        #expect(lf.rows == [["1", "2"]])
    }

    @Test func whatItWritesItReadsBack() throws {
        var random = SeededGenerator(seed: 4)
        let pieces = ["a", ",", "\"", "\r\n", "\n", " ", "é", "☕", "x y", "", "=1+2", "\t"]
        for _ in 0..<300 {
            func value() -> String { (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() }
            let table = CSVTable(header: ["one", "two", "three"], rows: (0..<Int(random.next() % 4)).map { _ in [value(), value(), value()] })
            let read = try CSVTable(parsing: Array(table.text().utf8), path: "t.csv")
            // A row of one empty field is a blank line, which CSV cannot tell from none; three fields always can.
            #expect(read == table, "\(table.text().debugDescription)")
        }
    }

    @Test(arguments: [
        ("title\n\"open", "t.csv:2: a quoted field is never closed"),
        ("title,x\na\"b,c", "t.csv:2:2: a quote inside a field that is not quoted"),
        ("title,x\n\"a\"b,c", "t.csv:2:4: text after a field's closing quote"),
        ("title,x\n1,2,3", "t.csv:2: this record has 3 fields, the header 2"),
        ("title,,x\n", "t.csv:1: column 2 of the header has no name"),
        ("title,Title\n", "t.csv:1: the header names 'Title' twice"),
        ("", "t.csv:1: the file holds no header row"),
    ]) func refusesWhatIsNotCSVAtItsPlace(text: String, message: String) {
        #expect { try CSVTable(parsing: Array(text.utf8), path: "t.csv") } throws: { error in
            guard let error = error as? KanbanError else { return false }
            return "\(error.location.map { "\($0)" } ?? ""): \(error.message)".hasPrefix(message)
        }
    }

    @Test func refusesBytesThatAreNotUTF8AndFilesTooLarge() {
        #expect(throws: KanbanError.self) { try CSVTable(parsing: [0x61, 0x0A, 0xFF, 0xFE], path: "t.csv") }
        #expect(throws: KanbanError.self) { try CSVTable(parsing: Array(repeating: 0x61, count: CSVTable.largestFile + 1), path: "t.csv") }
    }

    @Test func cardsBecomeRowsWithTheirKeysAndBodies() throws {
        let card = try CardReader.read(Array("""
            ---
            title: Fix, "now"
            column: todo
            position: m
            created: 2026-01-05T10:00:00Z
            labels: [bug, ui]
            points: 3
            body: a field named body
            ---

            Steps:
            1. open
            """.utf8), file: CardFile.active(name: "fix-now.md", column: "todo"), includeBody: true).0
        let table = CSVTable(cards: [card])
        #expect(table.header == ["slug", "title", "column", "position", "labels", "created", "modified", "points", "field-body", "body"])
        #expect(table.rows == [["fix-now", "Fix, \"now\"", "todo", "m", "bug, ui", "2026-01-05T10:00:00Z", "", "3", "a field named body", "Steps:\n1. open"]])
        #expect(try CSVTable(parsing: Array(table.text().utf8), path: "x.csv") == table)
    }
}
