import Foundation
import Testing

@testable import KanbanCore

/// The rules of an import, on the store: how columns and labels land, and what a second import of a changed source
/// does to the cards the first made.
@Suite struct ImportPlanTests {
    private func withBoard(_ body: (TemporaryBoard, BoardStore) throws -> Void) throws {
        let text = """
            ---
            title: Import
            columns:
              - id: todo
                name: To Do
              - id: doing
                name: In Progress
              - id: done
                name: Done
            labels:
              - id: bug
                name: Bug
                color: "#e74c3c"
            ---

            """
        let board = try TemporaryBoard.make(.boardFile(text, columns: ["todo", "doing", "done"]))
        defer { board.remove() }
        try body(board, try board.store())
    }

    private func source(_ cards: [ImportedCard], columns: [String] = ["To Do", "In Progress", "Done"],
                        labels: [ImportedLabel] = []) -> ImportedBoard {
        ImportedBoard(format: .trello, columns: columns.map(ImportedColumn.init), labels: labels, cards: cards)
    }

    @Test func columnsLandByNameOrIdOrMapAndTheRestAreDeclared() throws {
        try withBoard { _, store in
            let plan = try store.planImport(source([], columns: ["to do", "In progress", "Blocked", "QA", "Done"]),
                                            columnMap: ["qa": "Done", "BLOCKED": "waiting"])
            #expect(plan.columns.map(\.id) == ["todo", "doing", "waiting", "done", "done"])
            #expect(plan.columns.map(\.isNew) == [false, false, true, false, false])
            #expect(try store.loadBoard().columns.count == 3, "a plan writes nothing")
            let (_, change) = try store.applyImport(source([], columns: ["Blocked"]))
            #expect(change.writtenPaths == ["board.md"])
            #expect(try store.loadBoard().columns.last == Column(id: "blocked", name: "Blocked"))
        }
    }

    @Test func labelsLandByNameAndNewOnesKeepTheirColourAndScript() throws {
        try withBoard { _, store in
            let labels = [ImportedLabel(name: "bug", color: "#000000"), ImportedLabel(name: "Needs Review", color: "#61bd4f"),
                          ImportedLabel(name: "Ошибка"), ImportedLabel(name: "#!?", color: "not a colour")]
            let plan = try store.planImport(source([], labels: labels))
            #expect(plan.labels.map(\.label.id) == ["bug", "needs-review", "ошибка", "untitled"])
            #expect(plan.labels.map(\.isNew) == [false, true, true, true])
            #expect(plan.labels[0].label.color == "#e74c3c" && plan.labels[1].label.color == "#61bd4f")
            #expect(plan.labels[3].label.color.map(Label.isValidColor) == true)
        }
    }

    @Test func aSecondImportUpdatesMovesArchivesAndBringsBackOnlyWhatChanged() throws {
        try withBoard { board, store in
            let day = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
            var cards = [
                ImportedCard(sourceID: "trello:1", title: "First", column: "To Do", labels: ["bug"], body: "one",
                             fields: [YAMLMapEntry(key: "due", value: .unquoted("2026-02-01"))], created: day, modified: day),
                ImportedCard(sourceID: "trello:2", title: "Second", column: "To Do"),
                ImportedCard(sourceID: "trello:3", title: "Third", column: "Done", isArchived: true, archivedOn: "2026-01-05"),
            ]
            let (first, _) = try store.applyImport(source(cards))
            #expect(first.steps.map(\.action) == [.create, .create, .create])
            #expect(first.steps.map(\.path) == ["cards/todo/first.md", "cards/todo/second.md", "archive/2026-01-05-third.md"])
            let made = try store.card("first")
            #expect(made.created == day && made.modified == day && made.labels == ["bug"] && made.field("source")?.string == "trello:1")
            let second = try store.card("second")
            #expect((made.position ?? "") < (second.position ?? ""), "the source's order is kept")

            // By hand, a key the source does not give: it stays.
            try board.write(try board.text("cards/todo/first.md").replacingOccurrences(of: "labels:", with: "estimate: 3\nlabels:"),
                            to: "cards/todo/first.md")
            #expect(try store.planImport(source(cards)).steps.map(\.action) == [.unchanged, .unchanged, .unchanged])

            cards[0].title = "First, renamed"
            cards[0].fields = [YAMLMapEntry(key: "due", value: .unquoted("2026-03-01"))]
            cards[1].column = "Done"
            cards[1].isArchived = true
            cards[2].isArchived = false
            let (plan, change) = try store.applyImport(source(cards))
            #expect(plan.steps.map(\.action) == [.update, .update, .update])
            #expect(plan.steps.map(\.changes) == [["title", "due"], ["column", "archived"], ["archived"]])
            #expect(Set(change.removedPaths) == ["cards/todo/second.md", "archive/2026-01-05-third.md"])
            let renamed = try store.card("first")
            #expect(renamed.title == "First, renamed" && renamed.field("due")?.string == "2026-03-01")
            #expect(renamed.field("estimate")?.string == "3" && renamed.path == "cards/todo/first.md")
            #expect(try store.card("second", in: .archived).column == "done")
            #expect(try store.card("third").path == "cards/done/third.md")
            #expect(try store.planImport(source(cards)).steps.map(\.action) == [.unchanged, .unchanged, .unchanged])
        }
    }

    @Test func twoCardsWithOneIdAreRefusedAndTitlesBecomeOneLine() throws {
        try withBoard { _, store in
            let twice = source([ImportedCard(sourceID: "trello:1", title: "A", column: "To Do"),
                                ImportedCard(sourceID: "trello:1", title: "B", column: "To Do")])
            #expect(throws: KanbanError.self) { try store.planImport(twice) }
            let plan = try store.planImport(source([ImportedCard(sourceID: "x", title: "  two\nlines\u{7}\t ", column: "To Do"),
                                                    ImportedCard(sourceID: "y", title: "\u{1B}", column: "To Do")]))
            #expect(plan.steps.map(\.title) == ["two lines", "untitled"])
            let badKey = source([ImportedCard(sourceID: "z", title: "A", column: "To Do", fields: [YAMLMapEntry(key: "../x", value: .unquoted("1"))])])
            #expect(throws: KanbanError.self) { try store.planImport(badKey) }
        }
    }
}
