import Foundation
import Testing
@testable import KanbanCore

/// A change interrupted at any point is finished or undone by the next operation: never a card in two places,
/// never none. Each test stops a change between every two of its file steps (what a `kill -9` leaves), then
/// checks what the next operation makes of it. (`kanban-harness crash` does the same with real processes killed
/// at every system call.)
@Suite struct BoardJournalTests {
    /// The regular files of the board by path (the journal and temporaries included), with their bytes.
    private func files(_ board: TemporaryBoard) throws -> [String: [UInt8]] {
        try board.snapshot().filter { $0.value.kind == .file }.mapValues(\.bytes)
    }

    /// What `change` does to the simplekanban board, as a transaction: the files before and after it.
    private func transaction(of change: (BoardStore) throws -> Void) throws -> (before: [String: [UInt8]], after: [String: [UInt8]], steps: BoardTransaction) {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let before = try files(board)
            try change(board.store())
            let after = try files(board)
            var transaction = BoardTransaction("test change")
            for path in Set(before.keys).union(after.keys).sorted() where before[path] != after[path] {
                if let bytes = after[path] {
                    transaction.write(bytes, to: path, replacing: before[path])
                } else if let bytes = before[path] {
                    transaction.remove(path, before: bytes)
                }
            }
            return (before, after, transaction)
        }
    }

    /// The board as a killed process leaves it: the journal written, and the first `count` steps made in the order
    /// ``BoardJournal/apply(_:in:)`` makes them (new and rewritten files, then removals).
    private func interrupt(_ board: TemporaryBoard, _ transaction: BoardTransaction, after count: Int) throws {
        try board.write(BoardJournal.encode(transaction), to: BoardJournal.name)
        let ordered = transaction.steps.filter { $0.after != nil } + transaction.steps.filter { $0.after == nil }
        for step in ordered.prefix(count) {
            if let after = step.after {
                try board.write(after, to: step.path)
            } else {
                try FileManager.default.removeItem(atPath: board.absolute(step.path))
            }
        }
    }

    static let changes: [(name: String, change: @Sendable (BoardStore) throws -> Void)] = [
        ("move to another column", { try $0.moveCard("new-homepage-hero", to: "done") }),
        ("move within a column", { try $0.moveCard("update-pricing-page", placement: .top) }),
        ("archive", { try $0.archiveCard("new-homepage-hero") }),
        ("unarchive", { try $0.unarchiveCard("audit-old-blog-posts") }),
        ("delete", { try $0.deleteCard("set-up-staging-site") }),
        ("add at the top", { try $0.createCard(title: "A new card", in: "todo", placement: .top) }),
        ("remove a column, moving its cards", { try $0.removeColumn("in-progress", movingCardsTo: "done") }),
        ("remove a label from every card", { try $0.removeLabel("feature", strippingCards: true) }),
    ]

    @Test(arguments: changes.indices)
    func aChangeStoppedBetweenAnyTwoStepsIsFinishedByTheNextOperation(index: Int) throws {
        let (name, change) = Self.changes[index]
        let (_, after, transaction) = try transaction(of: change)
        #expect(!transaction.isEmpty, "\(name)")
        for count in 0...transaction.steps.count {
            try withTemporaryBoard(.fixture("simplekanban")) { board in
                try interrupt(board, transaction, after: count)
                // Any operation settles it: a load here (which takes the free lock to do so).
                let snapshot = try board.store().load(.all)
                #expect(try files(board) == after, "\(name), stopped after \(count) steps")
                #expect(Dictionary(grouping: snapshot.cards, by: \.slug).values.allSatisfy { $0.count == 1 }, "\(name): a card in two places")
                #expect(try board.paths(containing: "kanban-tmp").isEmpty && !board.exists(BoardJournal.name))
            }
        }
    }

    @Test func theNextChangeSaysWhatItFinished() throws {
        let (_, after, transaction) = try transaction { try $0.archiveCard("new-homepage-hero") }
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try interrupt(board, transaction, after: 1)
            #expect(board.exists("cards/in-progress/new-homepage-hero.md"), "stopped with the card in two places")
            let recovered = try #require(try board.store().recoverInterruptedChange())
            #expect(recovered.wasFinished && recovered.summary == "test change" && recovered.editedPaths.isEmpty)
            #expect(try files(board) == after)
            #expect(try board.store().recoverInterruptedChange() == nil, "nothing left to settle")
            // Archiving it again is refused: it is archived once, not twice.
            expectKanbanError(.cardNotFound) { try board.store().archiveCard("new-homepage-hero") }
        }
    }

    @Test func aChangeWhoseFileWasEditedSinceIsUndoneKeepingTheEdit() throws {
        let (before, _, transaction) = try transaction { try $0.moveCard("new-homepage-hero", to: "done") }
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try interrupt(board, transaction, after: 1)
            // Before anyone settles it, a person edits the card where it was.
            let edited = try board.text("cards/in-progress/new-homepage-hero.md") + "\nA line written by hand.\n"
            try board.write(edited, to: "cards/in-progress/new-homepage-hero.md")
            let recovered = try #require(try board.store().recoverInterruptedChange())
            #expect(!recovered.wasFinished)
            #expect(recovered.editedPaths == ["cards/in-progress/new-homepage-hero.md"])
            var expected = before
            expected["cards/in-progress/new-homepage-hero.md"] = Array(edited.utf8)
            #expect(try files(board) == expected, "the move is undone and the edit kept")
        }
    }

    @Test func aJournalThatWasNeverCompletedChangesNothing() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let before = try files(board)
            try board.write("kanban-journal 1\nsummary 4\nhalf", to: FileSystem.temporaryName(for: BoardJournal.name))
            _ = try board.store().load()
            #expect(try files(board) == before)
        }
    }

    @Test func aDamagedJournalIsPutAsideAndReported() throws {
        let (before, _, transaction) = try transaction { try $0.archiveCard("new-homepage-hero") }
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            var bytes = BoardJournal.encode(transaction)
            bytes[bytes.count / 2] ^= 0xFF
            try board.write(bytes, to: BoardJournal.name)
            #expect(try board.store().recoverInterruptedChange() == nil)
            #expect(board.exists(BoardJournal.damagedName) && !board.exists(BoardJournal.name))
            let problems = try board.store().check()
            #expect(problems.contains { $0.code == .interruptedChange && $0.severity == .error && $0.location.path == BoardJournal.damagedName })
            var expected = before
            expected[BoardJournal.damagedName] = bytes
            #expect(try files(board) == expected, "no card was touched")
        }
    }

    @Test func encodingRoundTripsAnyBytes() throws {
        var transaction = BoardTransaction("move x\nwith a line break")
        transaction.write([0, 10, 13, 255, 10], to: "cards/a/x.md", replacing: nil)
        transaction.write(Array("new".utf8), to: "cards/a/y.md", replacing: [])
        transaction.remove("cards/b/x.md", before: Array("old\n".utf8))
        #expect(BoardJournal.decode(BoardJournal.encode(transaction)) == transaction)
        let bytes = BoardJournal.encode(transaction)
        for cut in [0, 1, bytes.count / 3, bytes.count - 1] {
            #expect(BoardJournal.decode(Array(bytes.prefix(cut))) == nil, "a journal cut at \(cut) bytes is not taken for whole")
        }
    }
}
