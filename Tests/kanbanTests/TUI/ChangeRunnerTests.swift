import Foundation
import KanbanCore
import KanbanWatch
import Testing

@testable import kanban

/// Changes made from `kanban tui` and their undoing, through the store, without a terminal.
@Suite struct ChangeRunnerTests {
    /// Runs `body` with a runner on a copy of the sample board and the board as the TUI holds it.
    private func withRunner(_ body: (TemporaryBoard, ChangeRunner, BoardStore, () throws -> LiveBoard) throws -> Void) throws {
        try withTemporaryBoard(.sample) { board in
            let store = try BoardStore(directory: board.path)
            let runner = ChangeRunner(context: try tuiContext(for: board), store: store)
            try body(board, runner, store, { LiveBoard(snapshot: try store.load()) })
        }
    }

    /// Performs `edit`, checks it worked, undoes it, and returns the result of the undo.
    private func performAndUndo(_ edit: BoardEdit, _ runner: ChangeRunner, _ live: LiveBoard,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ChangeResult {
        let result = runner.perform(edit, on: live)
        #expect(!result.isError, "\(result.message)", sourceLocation: sourceLocation)
        let entry = try #require(result.undo, "no undo for \(edit)", sourceLocation: sourceLocation)
        let undone = runner.undo(entry)
        #expect(!undone.isError, "\(undone.message)", sourceLocation: sourceLocation)
        #expect(undone.message.hasPrefix("undid "), sourceLocation: sourceLocation)
        return undone
    }

    @Test func aMoveToAnotherColumnIsUndoneToItsPlace() throws {
        try withRunner { board, runner, _, load in
            let live = try load()
            let card = try #require(live.card(atPath: "cards/todo/localise-for-francais-and-espanol.md"))
            let before = live.slugs("todo")
            let undone = try performAndUndo(.move(card, column: "done", placement: nil), runner, live)
            #expect(try load().slugs("todo") == before)
            #expect(try load().slugs("done").count == 6)
            #expect(undone.selecting == card.path)
        }
    }

    @Test func aReorderIsUndone() throws {
        try withRunner { _, runner, _, load in
            let live = try load()
            let column = try #require(live.columnIndex(ofID: "in-progress"))
            let cards = live.columns[column].cards
            let before = cards.map(\.slug)
            _ = try performAndUndo(.move(cards[0], column: nil, placement: .after(cards[3].path)), runner, live)
            #expect(try load().slugs("in-progress") == before)
        }
    }

    @Test func aNewCardIsUndoneByDeletingIt() throws {
        try withRunner { board, runner, _, load in
            let live = try load()
            let result = runner.perform(.create(title: "Ship it", column: "todo", placement: .top), on: live)
            #expect(board.exists("cards/todo/ship-it.md"))
            #expect(result.selecting == "cards/todo/ship-it.md")
            // Issue 20 #11: it read "undid the adding".
            #expect(runner.undo(try #require(result.undo)).message == "undid adding \"Ship it\"")
            #expect(!board.exists("cards/todo/ship-it.md"))
        }
    }

    @Test func aRetitleAndALabelAreUndone() throws {
        try withRunner { board, runner, store, load in
            let path = "cards/todo/notarize-and-sign-the-macos-build.md"
            let card = try #require(try load().card(atPath: path))
            _ = try performAndUndo(.retitle(card, title: "Sign it"), runner, try load())
            #expect(try store.card(path).title == card.title)
            _ = try performAndUndo(.setLabel(card, label: "bug", isOn: true), runner, try load())
            _ = try performAndUndo(.setLabel(card, label: "infra", isOn: false), runner, try load())
            #expect(try store.card(path).labels == ["infra"])
        }
    }

    @Test func anArchiveIsUndoneToTheSameColumnAndPlace() throws {
        try withRunner { board, runner, _, load in
            let live = try load()
            let card = try #require(live.card(atPath: "cards/todo/write-release-notes-for-2-0.md"))
            let before = live.slugs("todo")
            let undone = try performAndUndo(.archive(card), runner, live)
            #expect(try load().slugs("todo") == before)
            #expect(try board.entries("archive").allSatisfy { !$0.contains(card.slug) })
            #expect(undone.changes.count == 2, "unarchived, then put back in its place")
        }
    }

    @Test func aDeleteIsUndoneByteForByte() throws {
        try withRunner { board, runner, _, load in
            let path = "cards/in-progress/raw-import-for-fujifilm-and-sony-files.md"
            let bytes = try board.bytes(path)
            let live = try load()
            _ = try performAndUndo(.delete(try #require(live.card(atPath: path))), runner, live)
            #expect(try board.bytes(path) == bytes)
        }
    }

    @Test func aFailedChangeSaysWhyAndLeavesNothingToUndo() throws {
        try withRunner { board, runner, _, load in
            let live = try load()
            let card = try #require(live.card(atPath: "cards/todo/notarize-and-sign-the-macos-build.md"))
            try FileManager.default.removeItem(atPath: board.absolute(card.path))
            let result = runner.perform(.archive(card), on: live)
            #expect(result.isError)
            #expect(result.message.contains("notarize-and-sign-the-macos-build"), "\(result.message)")
            #expect(result.undo == nil)
        }
    }

    @Test func undoingAfterTheCardWentAwaySaysSo() throws {
        try withRunner { board, runner, _, load in
            let live = try load()
            let card = try #require(live.card(atPath: "cards/todo/notarize-and-sign-the-macos-build.md"))
            let moved = runner.perform(.move(card, column: "done", placement: nil), on: live)
            try FileManager.default.removeItem(atPath: board.absolute("cards/done/notarize-and-sign-the-macos-build.md"))
            let undone = runner.undo(try #require(moved.undo))
            #expect(undone.isError)
            #expect(undone.undo == nil)
        }
    }

    @Test func aMoveAndItsUndoAreCombinedIntoOneChangeForTheCommit() {
        let archived = BoardChange(card: nil, previous: nil, writtenPaths: ["cards/todo/a.md"], removedPaths: ["archive/2026-01-01-a.md"])
        let placed = BoardChange(card: nil, previous: nil, writtenPaths: ["cards/todo/a.md", "cards/todo/b.md"])
        let combined = ChangeRunner.combined([archived, placed])
        #expect(combined.writtenPaths == ["cards/todo/a.md", "cards/todo/b.md"])
        #expect(combined.removedPaths == ["archive/2026-01-01-a.md"])
    }
}

@Suite struct UndoStackTests {
    @Test func popsTheNewestAndForgetsBeyondTheLimit() {
        var stack = UndoStack()
        #expect(stack.pop() == nil)
        for number in 0..<(UndoStack.limit + 20) {
            stack.push(.created(path: "cards/todo/\(number).md", title: "\(number)"))
        }
        #expect(stack.entries.count == UndoStack.limit)
        #expect(stack.pop() == .created(path: "cards/todo/\(UndoStack.limit + 19).md", title: "\(UndoStack.limit + 19)"))
        #expect(stack.entries.first == .created(path: "cards/todo/20.md", title: "20"))
    }

    @Test func aPlaceIsTriedAfterTheCardAboveThenBeforeTheCardBelow() {
        #expect(UndoEntry.Place(above: "a", below: "b").placements == [.after("a"), .before("b"), .bottom])
        #expect(UndoEntry.Place(above: nil, below: "b").placements == [.before("b"), .top])
        #expect(UndoEntry.Place().placements == [.top])
    }
}
