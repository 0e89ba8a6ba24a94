import Foundation
import Testing
@testable import KanbanCore

/// Editing `board.md`: columns, labels and the title, keeping every other byte of the file.
@Suite struct BoardStoreColumnsTests {
    /// `text` cut into the lines before the block of top-level key `key`, the block itself (its `key:` line and the
    /// indented or `-` lines under it), and the lines after it.
    private func split(_ text: String, at key: String) throws -> (before: [String], block: [String], after: [String]) {
        let all = lines(of: Array(text.utf8))
        let start = try #require(all.firstIndex { $0.hasPrefix("\(key):") }, "no '\(key):' line in \(text)")
        var end = start + 1
        while end < all.count, all[end].hasPrefix(" ") || (all[end].hasPrefix("-") && !all[end].hasPrefix("---")) {
            end += 1
        }
        return (Array(all[..<start]), Array(all[start..<end]), Array(all[end...]))
    }

    /// Expects `board.md` to differ from `original` only inside the block of `key`, and that block to read `expected`.
    private func expectOnlyBlockChanged(_ board: TemporaryBoard, from original: String, key: String, to expected: String,
                                        sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let old = try split(original, at: key)
        let new = try split(try board.text("board.md"), at: key)
        #expect(new.before == old.before, "the lines above '\(key):' are kept", sourceLocation: sourceLocation)
        #expect(new.after == old.after, "the lines below the '\(key):' block are kept", sourceLocation: sourceLocation)
        #expect(new.block.joined(separator: "\n") == expected, sourceLocation: sourceLocation)
    }

    // MARK: Columns

    @Test func addingAColumnWritesItInPlaceAndMakesItsDirectory() throws {
        try withTemporaryBoard(.team) { board in
            let change = try board.store().addColumn(id: "review", name: "Review", at: 2)
            #expect(change.writtenPaths == ["board.md"])
            #expect(FileSystem.isDirectory(board.absolute("cards/review")))
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "columns", to: """
                columns:
                  - id: todo
                    name: To Do
                    wip: 5
                  - id: doing
                    name: Doing
                  - id: review
                    name: Review
                  - id: done
                    name: Done
                """)
            #expect(try board.store().loadBoard().columns.map(\.id) == ["todo", "doing", "review", "done"])
        }
    }

    @Test(arguments: [(nil, ["todo", "doing", "done", "new"]), (0, ["new", "todo", "doing", "done"]),
                      (3, ["todo", "doing", "done", "new"])] as [(Int?, [String])])
    func addingAColumnAtAnIndex(index: Int?, order: [String]) throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addColumn(id: "new", name: "New", at: index)
            #expect(try store.loadBoard().columns.map(\.id) == order)
        }
    }

    /// An index outside the list is refused, as moving a column refuses one: the same rule for every operation.
    @Test(arguments: [99, 4, -1, -3, Int.max, Int.min])
    func addingAColumnAtAnIndexOutsideTheListIsRefused(index: Int) throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "new", name: "New", at: index) }
            #expect(try store.loadBoard().columns.map(\.id) == ["todo", "doing", "done"])
        }
    }

    @Test func addingAColumnKeepsTheSimpleKanbanBoardWithoutAFinalNewline() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let original = try board.text("board.md")
            try board.store().addColumn(id: "review", name: "Review", at: 2)
            try expectOnlyBlockChanged(board, from: original, key: "columns", to: """
                columns:
                  - id: todo
                    name: To Do
                  - id: in-progress
                    name: In Progress
                  - id: review
                    name: Review
                  - id: done
                    name: Done
                """)
            #expect(try board.text("board.md").hasSuffix("company website."))
        }
    }

    @Test func declaringAnUndeclaredDirectoryAdoptsItsCards() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.addColumn(id: "someday", name: "Someday")
            let snapshot = try store.load()
            #expect(snapshot.columnIDs == ["todo", "doing", "done", "someday"])
            #expect(snapshot.slugs(inColumn: "someday") == ["learn-rust"])
            #expect(try store.check().filter { $0.code == .undeclaredColumn }.isEmpty)
        }
    }

    @Test func addingAColumnRefusesWhatItCannotWrite() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.alreadyExists) { try store.addColumn(id: "doing", name: "Again") }
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "../x", name: "Escape") }
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "a b", name: "Spaced") }
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "ok", name: "  ") }
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "ok", name: "two\nlines") }
            #expect(try board.snapshot() == before)
            #expect(!FileSystem.exists(board.root + "/x"))
        }
    }

    @Test func aColumnWhoseIDDiffersOnlyInCaseIsRefused() throws {
        // Issue 20: on macOS's default disk `cards/UPPER` and `cards/upper` are one directory.
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addColumn(id: "UPPER", name: "Upper")
            let before = try board.snapshot()
            let error = expectKanbanError(.alreadyExists) { try store.addColumn(id: "upper", name: "Lower") }
            #expect(error?.message.contains("differs from 'UPPER' only in case") == true, "\(String(describing: error))")
            expectKanbanError(.alreadyExists) { try store.addColumn(id: "Doing", name: "Doing again") }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func aNewBoardWithColumnIDsDifferingOnlyInCaseIsRefused() throws {
        try withTemporaryDirectory { directory in
            let board = Board(title: "B", columns: [Column(id: "todo", name: "To Do"), Column(id: "ToDo", name: "To do")])
            let error = expectKanbanError(.invalidArgument) { try BoardStore.create(at: directory + "/board", board: board) }
            #expect(error?.message.contains("'ToDo' differs from 'todo' only in case") == true, "\(String(describing: error))")
            #expect(!FileSystem.exists(directory + "/board/board.md"))
        }
    }

    @Test func renamingAColumnChangesOnlyItsName() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.renameColumn("todo", to: "Backlog")
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "columns", to: """
                columns:
                  - id: todo
                    name: Backlog
                    wip: 5
                  - id: doing
                    name: Doing
                  - id: done
                    name: Done
                """)
            let column = expectKanbanError(.columnNotFound) { try store.renameColumn("review", to: "Review") }
            #expect(column?.candidates == ["todo", "doing", "done"])
        }
    }

    @Test func movingAColumnKeepsItsOtherKeys() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.moveColumn("todo", to: 2)
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "columns", to: """
                columns:
                  - id: doing
                    name: Doing
                  - id: done
                    name: Done
                  - id: todo
                    name: To Do
                    wip: 5
                """)
            expectKanbanError(.columnNotFound) { try store.moveColumn("review", to: 0) }
        }
    }

    @Test func collapsingAColumn() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.setColumnCollapsed("doing", true)
            #expect(try store.loadBoard().columns.map(\.isCollapsed) == [false, true, false])
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "columns", to: """
                columns:
                  - id: todo
                    name: To Do
                    wip: 5
                  - id: doing
                    name: Doing
                    collapsed: true
                  - id: done
                    name: Done
                """)
        }
    }

    @Test func undoingAnEditGivesBackTheSameBytes() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let original = try board.bytes("board.md")
            try store.setColumnCollapsed("doing", true)
            try store.setColumnCollapsed("doing", false)
            #expect(try board.bytes("board.md") == original, "collapse, expand")
            try store.renameColumn("doing", to: "In Progress")
            try store.renameColumn("doing", to: "Doing")
            #expect(try board.bytes("board.md") == original, "rename, rename back")
            try store.moveColumn("done", to: 0)
            try store.moveColumn("done", to: 2)
            #expect(try board.bytes("board.md") == original, "move, move back")
            try store.addColumn(id: "review", name: "Review")
            try store.removeColumn("review")
            #expect(try board.bytes("board.md") == original, "add, remove")
            #expect(!board.exists("cards/review"))
            try store.addLabel(id: "docs", name: "Docs", color: "#27ae60")
            try store.removeLabel("docs")
            #expect(try board.bytes("board.md") == original, "add label, remove label")
            try store.renameLabel("ui", to: "Interface")
            try store.renameLabel("ui", to: "UI")
            #expect(try board.bytes("board.md") == original, "rename label, rename back")
        }
    }

    @Test func undoingAnEditOfTheSimpleKanbanBoardGivesBackTheSameBytes() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let original = try board.bytes("board.md")
            try store.addColumn(id: "review", name: "Review", at: 1)
            try store.removeColumn("review")
            try store.setBoardTitle("Other")
            try store.setBoardTitle("Website Redesign")
            #expect(try board.bytes("board.md") == original)
        }
    }

    @Test func removingAnEmptyColumnRemovesItAndItsDirectory() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let change = try store.removeColumn("doing")
            #expect(change.writtenPaths == ["board.md"])
            #expect(change.removedPaths.isEmpty)
            #expect(!board.exists("cards/doing"))
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "columns", to: """
                columns:
                  - id: todo
                    name: To Do
                    wip: 5
                  - id: done
                    name: Done
                """)
        }
    }

    @Test func removingAColumnThatHoldsCardsNeedsATarget() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let error = expectKanbanError(.columnNotEmpty) { try store.removeColumn("todo") }
            #expect(error?.message.contains("3 cards") == true)
            expectKanbanError(.invalidArgument) { try store.removeColumn("todo", movingCardsTo: "todo") }
            expectKanbanError(.columnNotFound) { try store.removeColumn("todo", movingCardsTo: "review") }
            expectKanbanError(.columnNotFound) { try store.removeColumn("review") }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func removingAColumnWithATargetMovesItsCardsInOrder() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.removeColumn("todo", movingCardsTo: "done")
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()) == Set(change.paths).union(["cards/todo"]))
            #expect(!board.exists("cards/todo"))
            #expect(Set(change.removedPaths) == ["cards/todo/fix-broken-footer-links.md", "cards/todo/update-pricing-page.md",
                                                 "cards/todo/add-newsletter-signup.md"])
            let snapshot = try store.load()
            #expect(snapshot.board.columns.map(\.id) == ["in-progress", "done"])
            #expect(snapshot.slugs(inColumn: "done") == [
                "choose-a-font-pairing", "compress-hero-images", "set-up-staging-site",
                "fix-broken-footer-links", "update-pricing-page", "add-newsletter-signup",
            ])
            #expect(snapshot.cards(inColumn: "done").allSatisfy { $0.columnField == "done" })
            #expect(snapshot.cards.count == 8)
            #expect(snapshot.diagnostics.isEmpty)
        }
    }

    @Test func removingAColumnWithACardThatDoesNotParseChangesNothing() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let error = expectKanbanError(.invalidCard) { try store.removeColumn("doing", movingCardsTo: "todo") }
            #expect(error?.location?.path == "cards/doing/unclosed.md")
            #expect(try board.snapshot() == before)
        }
    }

    @Test func removingAColumnNeverDeletesFilesThatAreNotCards() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.removeColumn("todo", movingCardsTo: "doing")
            #expect(!board.exists("cards/todo/fix-login.md"))
            #expect(!board.exists("cards/todo/dup.md"))
            for litter in ["notes.txt", "4913", "fix-login.md~", "#fix-login.md#", ".fix-login.md.swp"] {
                #expect(board.exists("cards/todo/\(litter)"), "\(litter)")
            }
            #expect(try store.load().slugs(inColumn: "doing") == ["undeclared-label", "fix-login", "dup", "call-the-plumber"])
        }
    }

    @Test func removingAColumnWhoseCardCollidesInTheTargetChangesNothing() throws {
        // messy: cards/todo/dup.md cannot move to done, which has its own dup.md.
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.alreadyExists) { try store.removeColumn("todo", movingCardsTo: "done") }
            #expect(board.exists("cards/todo/dup.md"))
            #expect(board.exists("cards/done/dup.md"))
            #expect(try store.loadBoard().column(withID: "todo") != nil)
            let after = try board.snapshot()
            do {
                #expect(after == before)
            }
        }
    }

    @Test func theOnlyColumnCannotBeRemoved() throws {
        let text = "---\ntitle: Tiny\ncolumns:\n  - id: only\n    name: Only\n---\n"
        try withTemporaryBoard(.boardFile(text, columns: ["only"])) { board in
            let store = try board.store()
            expectKanbanError(.invalidArgument) { try store.removeColumn("only") }
            #expect(try board.text("board.md") == text)
        }
    }

    // MARK: Labels

    @Test func addingALabelKeepsTheOthersAsWritten() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addLabel(id: "docs", name: "Docs", color: "#27ae60")
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "labels", to: """
                labels:
                  - id: bug
                    name: Bug
                    color: "#e74c3c"
                  - id: ui
                    name: UI
                    color: '#3498db'
                  - id: docs
                    name: Docs
                    color: "#27ae60"
                """)
            #expect(try store.loadBoard().label(withID: "docs") == Label(id: "docs", name: "Docs", color: "#27ae60"))
        }
    }

    @Test func addingALabelToABoardWithoutLabels() throws {
        let text = "---\ntitle: Tiny\ncolumns:\n  - id: todo\n    name: To Do\n---\n\nNotes.\n"
        try withTemporaryBoard(.boardFile(text, columns: ["todo"])) { board in
            let store = try board.store()
            try store.addLabel(id: "bug")
            // Every label gets a colour: SimpleKanban drops one without.
            #expect(try store.loadBoard().labels == [Label(id: "bug", name: "bug", color: "#e74c3c")])
            #expect(try board.text("board.md").hasSuffix("---\n\nNotes.\n"))
            try store.createCard(title: "Tagged", labels: ["bug"])
            #expect(try store.card("tagged").labels == ["bug"])
        }
    }

    @Test func addingALabelRefusesWhatItCannotWrite() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.alreadyExists) { try store.addLabel(id: "bug") }
            expectKanbanError(.invalidArgument) { try store.addLabel(id: "two words") }
            expectKanbanError(.invalidArgument) { try store.addLabel(id: "a,b") }
            expectKanbanError(.invalidArgument) { try store.addLabel(id: "docs", color: "green") }
            expectKanbanError(.invalidArgument) { try store.renameLabel("bug", color: "#12") }
            let unknown = expectKanbanError(.labelNotFound) { try store.renameLabel("docs", to: "Docs") }
            #expect(unknown?.candidates == ["bug", "ui"])
            expectKanbanError(.labelNotFound) { try store.removeLabel("docs") }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func renamingALabelKeepsItsColourAsWritten() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.renameLabel("ui", to: "Interface")
            try expectOnlyBlockChanged(board, from: TemporaryBoard.teamBoardText, key: "labels", to: """
                labels:
                  - id: bug
                    name: Bug
                    color: "#e74c3c"
                  - id: ui
                    name: Interface
                    color: '#3498db'
                """)
            try store.renameLabel("bug", color: "#c0392b")
            // SimpleKanban removes only double quotes from a colour: the single-quoted one keeps its quotes (and
            // `kanban doctor` says so).
            #expect(try store.loadBoard().labels == [Label(id: "bug", name: "Bug", color: "#c0392b"),
                                                    Label(id: "ui", name: "Interface", color: "'#3498db'")])
        }
    }

    @Test func removingALabelLeavesTheCardsAlone() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.removeLabel("bug")
            #expect(change.paths == ["board.md"])
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()) == ["board.md"])
            #expect(try store.loadBoard().labels.map(\.id) == ["feature"])
            let undeclared = try store.check().filter { $0.code == .undeclaredLabel }.map(\.location.path)
            #expect(Set(undeclared) == ["cards/todo/fix-broken-footer-links.md", "cards/done/compress-hero-images.md",
                                        "cards/in-progress/mobile-menu-close-on-tap-outside.md"])
        }
    }

    @Test func removingALabelWithStripTakesItOffEveryCard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let old = try board.bytes("cards/done/compress-hero-images.md")
            let before = try board.snapshot()
            let change = try store.removeLabel("bug", strippingCards: true)
            #expect(Set(change.paths) == ["board.md", "cards/todo/fix-broken-footer-links.md", "cards/done/compress-hero-images.md",
                                          "cards/in-progress/mobile-menu-close-on-tap-outside.md"])
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()) == Set(change.paths))
            let snapshot = try store.load(.all)
            #expect(snapshot.cards.allSatisfy { !$0.labels.contains("bug") })
            #expect(snapshot.card(atPath: "cards/done/compress-hero-images.md")?.labels == ["feature"])
            let new = try board.bytes("cards/done/compress-hero-images.md")
            let changed = Set(zip(lines(of: old), lines(of: new)).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset))
            #expect(changed == [5, 6])
            #expect(lines(of: new)[6] == "labels: [feature]")
            #expect(try store.check().filter { $0.code == .undeclaredLabel }.isEmpty)
        }
    }

    @Test func strippingALabelReachesArchivedCards() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.updateCard("audit-old-blog-posts", CardUpdate(addedLabels: ["bug"]), in: .archived)
            let change = try store.removeLabel("bug", strippingCards: true)
            #expect(change.paths.contains("archive/2026-03-02-audit-old-blog-posts.md"))
            #expect(try store.card("audit-old-blog-posts", in: .archived).labels.isEmpty)
        }
    }

    // MARK: Title

    @Test func settingTheTitleChangesOnlyTheTitleLine() throws {
        try withTemporaryBoard(.team) { board in
            try board.store().setBoardTitle("Team Board 2026")
            let old = lines(of: Array(TemporaryBoard.teamBoardText.utf8))
            let new = lines(of: try board.bytes("board.md"))
            #expect(new.count == old.count)
            #expect(Set(zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)) == [2])
            #expect(new[2] == "title: Team Board 2026")
        }
    }

    @Test func settingTheTitleOfAHandEditedBoardKeepsItsFinalNewline() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let original = try board.text("board.md")
            try board.store().setBoardTitle("Tidy Board")
            #expect(try board.text("board.md") == original.replacingOccurrences(of: "title: Messy Board", with: "title: Tidy Board"))
        }
    }

    @Test func aBoardTitleIsWrittenAsItIsForSimpleKanban() throws {
        // The app never unquotes a board's title: quotes would show. (A YAML reader cannot read `Q3: launch` plain;
        // `kanban doctor` says so.)
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.setBoardTitle("Q3: launch")
            #expect(try store.loadBoard().title == "Q3: launch")
            #expect(lines(of: try board.bytes("board.md"))[2] == "title: Q3: launch")
        }
    }

    @Test(arguments: ["", "  ", "two\nlines"])
    func aBoardTitleMustBeOneNonEmptyLine(title: String) throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            expectKanbanError(.invalidArgument) { try store.setBoardTitle(title) }
            #expect(try board.text("board.md") == TemporaryBoard.teamBoardText)
        }
    }

    @Test func everyBoardEditKeepsTheBodyAndTheKeysItDoesNotKnow() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addColumn(id: "review", name: "Review")
            try store.renameColumn("todo", to: "Inbox")
            try store.moveColumn("done", to: 0)
            try store.setColumnCollapsed("done", true)
            try store.addLabel(id: "docs", name: "Docs", color: "#27ae60")
            try store.renameLabel("bug", to: "Defect")
            try store.removeLabel("ui")
            try store.setBoardTitle("Renamed Board")
            let text = try board.text("board.md")
            let original = TemporaryBoard.teamBoardText
            #expect(text.hasPrefix("---\n# Settings for the team board; edit with care.\ntitle: Renamed Board\nowner: sam  # ask Sam before changing columns\ncolumns:\n"))
            let body = try #require(original.range(of: "\n---\n"))
            #expect(text.hasSuffix(String(original[body.lowerBound...])))
            #expect(text.contains("\nsettings:\n  theme: dark\n---\n"))
            #expect(text.contains("    wip: 5\n"))
            let loaded = try store.loadBoard()
            #expect(loaded.columns.map(\.id) == ["done", "todo", "doing", "review"])
            #expect(loaded.columns.map(\.name) == ["Done", "Inbox", "Doing", "Review"])
            #expect(loaded.columns.map(\.isCollapsed) == [true, false, false, false])
            #expect(loaded.labels.map(\.name) == ["Defect", "Docs"])
            #expect(loaded.fields.map(\.key) == ["owner", "settings"])
            #expect(loaded.cardTemplate == TemporaryBoard.teamTemplate)
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
        }
    }
}
