import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanCore

/// Generated sources against the import's promises: whatever the titles, column and label names and keys hold, an
/// import writes only inside `cards/<column>/` and `archive/`, leaves a board `doctor` finds nothing wrong with, and a
/// second import of the same source (or of a changed one) never adds a card twice. CI runs 40 rounds;
/// `KANBAN_IMPORT_ROUNDS=2000 swift test --filter ImportGeneratedTests` is the big run (`KANBAN_IMPORT_SEED` another seed).
@Suite struct ImportGeneratedTests {
    static let titles = ["Fix login", "../../etc/passwd", "/absolute/path.md", "..", ".hidden", "a/b\\c", "", "  ", "\u{1B}[31mred",
                         "two\nlines", "Überprüfen", "修复登录", "🚀", "CON", "title: yes", "- [ ] item", "#tag", String(repeating: "long ", count: 60),
                         "Fix login", "\u{202E}reversed", "null", "[a, b]"]
    static let names = ["To Do", "to do", "Doing", "../up", "", " ", "cards", "archive", ".git", "Ünïcödé", "修复", "a/b", String(repeating: "x", count: 90),
                        "Done"]
    static let keys = ["due", "assignee", "url", "estimate", "due", "x-1", "priority"]
    static let values = ["2026-01-01", "yes", "1", "", "multi\nline", "\u{7}bell", "[x]", "ana", "../../etc"]

    private func generated(_ generator: inout SeededGenerator, count: Int) -> ImportedBoard {
        func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        var board = ImportedBoard(format: .trello)
        board.columns = (0..<Int.random(in: 1...4, using: &generator)).map { _ in ImportedColumn(name: pick(Self.names)) }
        board.labels = (0..<Int.random(in: 0...4, using: &generator)).map { _ in ImportedLabel(name: pick(Self.names), color: chance(50) ? "#61bd4f" : pick(["red", "#zzz", ""])) }
        board.cards = (0..<count).map { index in
            ImportedCard(sourceID: "trello:\(index)", title: pick(Self.titles), column: chance(90) ? pick(board.columns).name : pick(Self.names),
                         labels: board.labels.isEmpty || chance(30) ? [] : [pick(board.labels).name, pick(Self.names)],
                         body: chance(50) ? "Body \(index)\n\n- [ ] step\n" : "",
                         fields: chance(60) ? [YAMLMapEntry(key: pick(Self.keys), value: .unquoted(pick(Self.values)))] : [],
                         isArchived: chance(20), created: chance(50) ? Date(timeIntervalSince1970: Double(1_700_000_000 + index * 3600)) : nil)
        }
        return board
    }

    @Test func generatedSourcesStayInsideTheBoardAndNeverDuplicate() throws {
        let environment = ProcessInfo.processInfo.environment
        var generator = SeededGenerator(seed: environment["KANBAN_IMPORT_SEED"].flatMap { UInt64($0) } ?? 392_118)
        for round in 0..<(environment["KANBAN_IMPORT_ROUNDS"].flatMap { Int($0) } ?? 40) {
            let board = try TemporaryBoard.make(.boardFile("---\ntitle: Generated\ncolumns:\n  - id: todo\n    name: To Do\n---\n", columns: ["todo"]))
            defer { board.remove() }
            let store = try board.store()
            var source = generated(&generator, count: Int.random(in: 1...25, using: &generator))
            try store.applyImport(source)
            try expectSound(store, board, source: source, round: round)

            // The source changes: titles, columns, archive flags; a second import updates, never adds.
            for index in source.cards.indices where Bool.random(using: &generator) {
                source.cards[index].title = Self.titles.randomElement(using: &generator)!
                source.cards[index].column = source.columns.randomElement(using: &generator)!.name
                source.cards[index].isArchived.toggle()
            }
            try store.applyImport(source)
            try expectSound(store, board, source: source, round: round)
        }
    }

    private func expectSound(_ store: BoardStore, _ board: TemporaryBoard, source: ImportedBoard, round: Int) throws {
        let again = try store.planImport(source)
        #expect(again.steps.allSatisfy { $0.action == .unchanged }, "round \(round): \(again.steps.filter { $0.action != .unchanged }.map(\.changes))")
        let snapshot = try store.load(.all)
        #expect(snapshot.cards.count == source.cards.count, "round \(round)")
        #expect(Set(snapshot.cards.compactMap { $0.field("source")?.string }).count == source.cards.count)
        let errors = try store.check().filter { $0.severity == .error }
        #expect(errors.isEmpty, "round \(round): \(errors)")
        let columns = Set(snapshot.board.columns.map(\.id))
        for card in snapshot.cards {
            let parts = card.path.split(separator: "/").map(String.init)
            let inside = card.isArchived ? parts.count == 2 && parts[0] == "archive" : parts.count == 3 && parts[0] == "cards" && columns.contains(parts[1])
            #expect(inside && !parts.contains("..") && !parts.contains { $0.hasPrefix(".") }, "round \(round): \(card.path)")
        }
        // Nothing outside the board's own places.
        let top = try FileManager.default.contentsOfDirectory(atPath: board.path).filter { !$0.hasPrefix(".") }
        #expect(Set(top).isSubset(of: ["board.md", "cards", "archive"]), "round \(round): \(top)")
    }
}
