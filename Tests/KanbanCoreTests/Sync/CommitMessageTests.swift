import Foundation
import Testing
@testable import KanbanCore

extension SyncTests {
    /// Commit messages: short subjects for `git log --oneline`, trailers for scripts.
    @Suite struct CommitMessageTests {
        private let board = Board(title: "Team", columns: [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")])

        private func event(_ kind: CardEvent.Kind, _ title: String = "Fix login bug", column: String = "done", from: String? = nil,
                           fields: [String] = []) -> CardEvent {
            CardEvent(kind: kind, slug: "fix-login-bug", title: title, column: column, previousColumn: from,
                      path: "cards/\(column)/fix-login-bug.md", changedFields: fields)
        }

        @Test(arguments: [
            (CardEvent.Kind.added, nil as String?, [String](), "Add \"Fix login bug\" to Done", ["Card: fix-login-bug", "To: done"]),
            (.moved, "todo", [], "Move \"Fix login bug\" from To Do to Done", ["Card: fix-login-bug", "From: todo", "To: done"]),
            (.reordered, nil, [], "Reorder \"Fix login bug\" in Done", ["Card: fix-login-bug", "To: done"]),
            (.edited, nil, ["title", "labels"], "Edit \"Fix login bug\" (title, labels)", ["Card: fix-login-bug"]),
            (.archived, nil, [], "Archive \"Fix login bug\"", ["Card: fix-login-bug", "From: done"]),
            (.unarchived, nil, [], "Unarchive \"Fix login bug\" to Done", ["Card: fix-login-bug", "To: done"]),
            (.deleted, nil, [], "Delete \"Fix login bug\"", ["Card: fix-login-bug", "From: done"]),
        ])
        func describesOneEvent(kind: CardEvent.Kind, from: String?, fields: [String], subject: String, trailers: [String]) {
            let message = CommitMessage(event(kind, from: from, fields: fields), board: board)
            #expect(message.subject == subject)
            #expect(message.trailers.map { "\($0.key): \($0.value)" } == trailers)
            #expect(message.text == subject + "\n\n" + trailers.joined(separator: "\n") + "\n")
        }

        @Test func cutsLongTitlesSoTheSubjectFitsSeventyTwoCharacters() {
            let title = "Investigate why the nightly export to the data warehouse sometimes drops rows from yesterday"
            let message = CommitMessage(event(.moved, title, from: "todo"), board: board)
            #expect(message.subject.count == 72, "\(message.subject)")
            #expect(message.subject.hasPrefix("Move \"Investigate why the nightly"))
            #expect(message.subject.hasSuffix("…\" from To Do to Done"))
        }

        @Test func keepsShortSubjectsWhole() {
            #expect(CommitMessage(event(.added, "Café ☕️ menu"), board: board).subject == "Add \"Café ☕️ menu\" to Done")
        }

        @Test func cutsAnyOverLongSubject() {
            let message = CommitMessage(subject: String(repeating: "x", count: 100) + "\nsecond line")
            #expect(message.subject.count == 72)
            #expect(message.subject.hasSuffix("…"))
            #expect(!message.subject.contains("\n"))
        }

        @Test func summarisesSeveralEventsOfOneKind() throws {
            var second = event(.moved, "Write docs", from: "todo")
            second.slug = "write-docs"
            let message = try #require(CommitMessage(describing: [event(.moved, from: "todo"), second], board: board))
            #expect(message.subject == "Move 2 cards to Done")
            #expect(message.body == "- Move \"Fix login bug\" from To Do to Done [fix-login-bug]\n- Move \"Write docs\" from To Do to Done [write-docs]")
            #expect(message.trailers == [CommitTrailer("Card", "fix-login-bug"), CommitTrailer("Card", "write-docs")])
        }

        /// Issue 20 #11: one card and board settings was "Add 1 cards to Done and board settings".
        @Test func countsOneCardInTheSingular() throws {
            let message = try #require(CommitMessage(describing: [event(.added, "Write docs")], boardFileChanged: true, board: board))
            #expect(message.subject == "Add 1 card to Done and board settings")
        }

        @Test func summarisesMixedEventsAndBoardSettings() throws {
            var added = event(.added, "Write docs", column: "todo")
            added.slug = "write-docs"
            let message = try #require(CommitMessage(describing: [event(.moved, from: "todo"), added], boardFileChanged: true, board: board))
            #expect(message.subject == "Update 2 cards: 1 added, 1 moved and board settings")
            #expect(CommitMessage(describing: [], boardFileChanged: true)?.subject == "Edit board settings")
            #expect(CommitMessage(describing: [], boardFileChanged: false) == nil)
        }

        @Test func describesStoreChanges() throws {
            try withTemporaryBoard(.team) { board in
                let store = try board.store()
                let added = try store.createCard(title: "Fix login bug", in: "todo")
                #expect(CommitMessage(describing: [added], board: try store.loadBoard())?.subject == "Add \"Fix login bug\" to To Do")
                let moved = try store.moveCard("fix-login-bug", to: "done")
                let message = try #require(CommitMessage(describing: [moved], board: try store.loadBoard()))
                #expect(message.subject == "Move \"Fix login bug\" from To Do to Done")
                #expect(message.trailers == [CommitTrailer("Card", "fix-login-bug"), CommitTrailer("From", "todo"), CommitTrailer("To", "done")])
                let edited = try store.updateCard("fix-login-bug", CardUpdate(addedLabels: ["bug"], fields: [YAMLMapEntry(key: "due", value: .string("2026-12-01"))]))
                #expect(CommitMessage(describing: [edited])?.subject == "Edit \"Fix login bug\" (labels, due)")
                let archived = try store.archiveCard("fix-login-bug")
                #expect(CommitMessage(describing: [archived])?.subject == "Archive \"Fix login bug\"")
                #expect(CommitMessage(describing: [archived])?.trailers.last == CommitTrailer("From", "done"))
                let deleted = try store.deleteCard("fix-login-bug", in: .all)
                #expect(CommitMessage(describing: [deleted])?.subject == "Delete \"Fix login bug\"")
                let column = try store.addColumn(id: "review", name: "Review")
                #expect(CommitMessage(describing: [column]) == nil)
            }
        }
    }
}
