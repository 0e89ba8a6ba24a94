import Foundation
import Testing

@testable import KanbanServer
@testable import kanban

/// `kanban board`, run as a person runs it, on copies of the sample board.
@Suite struct BoardCommandTests {
    static let sampleHeaders = ["To Do (5)", "In Progress (5)", "Review (4)", "Done (6)"]

    @Test func showsEveryColumnWithItsCountAt120Columns() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["--board", board.path, "board"], environment: ["COLUMNS": "120"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let lines = result.stdout.lines
            #expect(lines.first == "Lumen 2.0 Launch")
            let header = try #require(lines.dropFirst(2).first)
            #expect(header.hasPrefix("Backlog │ "), "the collapsed column is narrow: \(header)")
            for name in Self.sampleHeaders {
                #expect(header.contains(name), "\(name) in \(header)")
            }
            #expect(lines.contains { $0.hasPrefix("(5)     │ ") }, "the collapsed column's count")
            #expect(lines.last == "25 cards · 4 archived")
            for line in lines {
                #expect(line.terminalWidth <= 120, "\(line)")
            }
            #expect(!containsEscape(result.stdout))
            // Cards of expanded columns show their slugs (cut to the column when long); collapsed ones do not.
            #expect(result.stdout.contains("new-app-icon"))
            #expect(result.stdout.contains("[infra]"))
            #expect(!result.stdout.contains("face-grouping"))
        }
    }

    @Test(arguments: [1, 20, 40, 80, 100, 160, 200, 400])
    func noLineIsWiderThanTheTerminal(width: Int) throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board"], environment: ["COLUMNS": "\(width)"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.lines
            for line in lines {
                #expect(line.terminalWidth <= width, "\(line)")
            }
            guard width >= 40 else { return }
            for name in Self.sampleHeaders {
                #expect(lines.contains { $0.contains(name) }, "\(name) at \(width)")
            }
        }
    }

    @Test func narrowTerminalsGetBandsOfColumns() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board"], environment: ["COLUMNS": "80"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.lines
            // Five columns of at least 16 do not fit in 80: three, then two, one band under the other.
            #expect(lines[2].hasPrefix("Backlog │ To Do (5) "))
            #expect(lines[2].hasSuffix(" │ In Progress (5)"))
            let second = try #require(lines.firstIndex { $0.hasPrefix("Review (4) ") })
            #expect(lines[second - 1] == "")
            #expect(lines[second].hasSuffix(" │ Done (6)"))
        }
    }

    @Test func jsonIsTheWholeBoard() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["title", "columns", "labels"])
            #expect(object["title"] as? String == "Lumen 2.0 Launch")
            let columns = try #require(object["columns"] as? [[String: Any]])
            #expect(columns.map { $0["id"] as? String } == ["backlog", "todo", "in-progress", "review", "done"])
            #expect(columns.map { ($0["cards"] as? [Any])?.count } == [5, 5, 5, 4, 6])
            for column in columns {
                #expect(Set(column.keys) == ["id", "name", "collapsed", "limit", "cards"])
            }
            #expect(columns.first?["collapsed"] as? Bool == true)
            #expect(columns.first?["name"] as? String == "Backlog")
            let card = try #require((columns[1]["cards"] as? [[String: Any]])?.first)
            for key in ["slug", "title", "column", "position", "labels", "path", "archived"] {
                #expect(card[key] != nil, "card key \(key)")
            }
            let labels = try #require(object["labels"] as? [[String: Any]])
            #expect(labels.count == 6)
            #expect(labels.first.map { Set($0.keys) } == ["id", "name", "color"])
            #expect(labels.first?["color"] as? String == "#3498db")
        }
    }

    @Test func jsonAppliesTheFilters() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--json", "--column", "todo", "--column", "backlog", "--label", "docs"])
            #expect(result.status == 0, "\(result)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let columns = try #require(object["columns"] as? [[String: Any]])
            #expect(columns.map { $0["id"] as? String } == ["backlog", "todo"], "board order, not the order given")
            let cards = columns.flatMap { ($0["cards"] as? [[String: Any]]) ?? [] }
            #expect(cards.map { $0["slug"] as? String } == [
                "keyboard-shortcut-cheat-sheet", "localise-for-francais-and-espanol", "write-release-notes-for-2-0",
            ])
            #expect((object["labels"] as? [Any])?.count == 6, "labels are the board's, unfiltered")
        }
    }

    @Test func filtersColumnsAndLabels() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--column", "in-progress", "-c", "review", "--label", "bug"],
                                       environment: ["COLUMNS": "100"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.lines
            #expect(lines[2].hasPrefix("In Progress (1) "))
            #expect(lines[2].hasSuffix(" │ Review (1)"))
            #expect(result.stdout.contains("crash-on-launch-corrupted-thumbnail-cache"))
            #expect(result.stdout.contains("memory-leak-when-scrolling-large-libraries"))
            #expect(!result.stdout.contains("To Do"))
            #expect(!result.stdout.contains("[feature]"))
            #expect(lines.last == "2 cards", "no archive count with filters")
        }
    }

    @Test func anUnknownColumnFails() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--column", "nope"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.lines == [
                "error: no column 'nope' on this board",
                "  The board has: backlog, todo, in-progress, review, done",
            ])
        }
    }

    @Test func anUnknownLabelFails() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--label", "nope", "--json"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.lines.first == "error: no label 'nope' on this board")
            #expect(result.stderr.contains("feature, bug, design, docs, infra, marketing"))
        }
    }

    @Test func aMisspeltOptionIsAUsageError() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["board", "--colum", "todo"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("unknown option '--colum'"))
            #expect(result.stderr.contains("'--column'"))
        }
    }

    @Test func undeclaredDirectoriesWithCardsComeLast() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write("---\ntitle: Someday\nlabels: [odd]\n---\n", to: "cards/ideas/someday.md")
            try FileManager.default.createDirectory(atPath: board.absolute("cards/empty"), withIntermediateDirectories: true)
            let result = try board.run(["board"], environment: ["COLUMNS": "200"])
            #expect(result.status == 0, "\(result)")
            let header = result.stdout.lines[2]
            #expect(header.contains(" │ Done (6) "), "\(result)")
            #expect(header.hasSuffix(" │ ideas (undeclared) (1)"), "\(result)")
            #expect(!result.stdout.contains("empty"))
            #expect(result.stdout.lines.last == "26 cards · 4 archived")

            // Undeclared columns and labels can be asked for by id.
            let filtered = try board.run(["board", "--column", "ideas", "--label", "odd"])
            #expect(filtered.status == 0, "\(filtered)")
            #expect(filtered.stdout.lines[2] == "ideas (undeclared) (1)")
        }
    }

    @Test func badCardFilesAreReportedAndSkipped() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write("---\ntitle: Never closed\n\nno closing line\n", to: "cards/todo/broken.md")
            let result = try board.run(["board"], environment: ["COLUMNS": "120"])
            #expect(result.status == 0, "\(result)")
            let diagnostics = result.stderr.lines
            #expect(diagnostics.count == 1, "\(result)")
            #expect(diagnostics.allSatisfy(isDiagnosticLine), "\(result)")
            #expect(diagnostics.first?.hasPrefix("cards/todo/broken.md:") == true, "\(result)")
            #expect(result.stdout.contains("To Do (5)"))
            #expect(!result.stdout.contains("Never closed"))
        }
    }

    @Test func quietLeavesOutTheSummary() throws {
        try withTemporaryBoard(.sample) { board in
            let loud = try board.run(["board"])
            let quiet = try board.run(["board", "--quiet"])
            #expect(quiet.status == 0, "\(quiet)")
            #expect(quiet.stdout.lines + ["", "25 cards · 4 archived"] == loud.stdout.lines)
        }
    }

    @Test func pipedOutputHasNoEscapesUnlessAskedFor() throws {
        try withTemporaryBoard(.sample) { board in
            let piped = try board.run(["board"], environment: ["COLUMNS": "120"])
            #expect(piped.status == 0)
            #expect(!containsEscape(piped.stdout))

            let forced = try board.run(["board", "--color", "always"], environment: ["COLUMNS": "120"])
            #expect(forced.status == 0)
            #expect(containsEscape(forced.stdout))
            #expect(forced.stdout.contains("m infra \u{1B}[0m"), "label tags on their colour")
            // Escapes take no room: lines are as wide as without colour.
            #expect(forced.stdout.lines.map(\.terminalWidth) == piped.stdout.lines.map(\.terminalWidth))

            let never = try board.run(["board", "--no-color"], environment: ["COLUMNS": "120"])
            #expect(!containsEscape(never.stdout))
        }
    }

    @Test func aTerminalGetsColourUnlessNoColorIsSet() throws {
        try withTemporaryBoard(.sample) { board in
            let coloured = try board.run(["board"], environment: ["COLUMNS": "50"], stdoutIsTerminal: true)
            #expect(coloured.status == 0, "\(coloured)")
            #expect(containsEscape(coloured.stdout))
            // The terminal's own width (100) wins over COLUMNS; the terminal writes "\r\n".
            let lines = coloured.stdout.replacingOccurrences(of: "\r\n", with: "\n").lines
            #expect(lines.allSatisfy { $0.terminalWidth <= 100 })
            #expect(lines.contains { $0.terminalWidth > 50 })

            let plain = try board.run(["board"], environment: ["NO_COLOR": "1"], stdoutIsTerminal: true)
            #expect(plain.status == 0, "\(plain)")
            #expect(!containsEscape(plain.stdout))
        }
    }

    @Test func helpExplainsTheLayout() throws {
        let result = try KanbanProcess.run(["board", "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("OVERVIEW: Show the board"))
        #expect(result.stdout.contains("bands"))
        #expect(result.stdout.contains("kanban board --column todo"))
        #expect(result.stdout.contains("USAGE: kanban board [--column <id>]... [--label <id>]... [--json]"))
    }
}
