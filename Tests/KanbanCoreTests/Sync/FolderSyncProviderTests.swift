import Foundation
import Testing
@testable import KanbanCore

extension SyncTests {
    /// Two copies of a board in two folders, changed on both sides and reconciled by ``FolderSyncProvider``, a provider
    /// with no git: the merge rules converge them as they converge git clones.
    @Suite struct FolderSyncProviderTests {
        /// Two folders holding one board (a card `fix-login` in `todo`) and a provider for each.
        struct Pair {
            let ana: BoardStore
            let ben: BoardStore
            let anaSync: FolderSyncProvider
            let benSync: FolderSyncProvider

            /// The board files of the two folders.
            func files() throws -> (BoardMerge.Files, BoardMerge.Files) {
                (try FolderSyncProvider.files(in: ana.directory), try FolderSyncProvider.files(in: ben.directory))
            }

            func card(in store: BoardStore) throws -> Card {
                try store.card("fix-login", in: .all)
            }
        }

        private static let start = Date(timeIntervalSince1970: 1_780_000_000)

        private func withPair(anaClock: @escaping @Sendable () -> Date = { start }, benClock: @escaping @Sendable () -> Date = { start },
                              _ body: (Pair) throws -> Void) throws {
            try withTemporaryDirectory { directory in
                let board = Board(title: "Team", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"),
                                                           Column(id: "done", name: "Done")],
                                  labels: [Label(id: "bug", name: "Bug"), Label(id: "ui", name: "UI")])
                let first = try BoardStore.create(at: directory + "/ana", board: board, clock: { Self.start })
                try first.createCard(title: "Fix login", in: "todo", body: "Steps\nOpen the app\n")
                try FileManager.default.copyItem(atPath: directory + "/ana", toPath: directory + "/ben")
                let ana = try BoardStore(directory: directory + "/ana", clock: anaClock)
                let ben = try BoardStore(directory: directory + "/ben", clock: benClock)
                let state = directory + "/state"
                try body(Pair(ana: ana, ben: ben,
                              anaSync: try FolderSyncProvider(directory: ana.directory, peer: ben.directory, stateDirectory: state, clock: anaClock),
                              benSync: try FolderSyncProvider(directory: ben.directory, peer: ana.directory, stateDirectory: state, clock: benClock)))
            }
        }

        @Test func bothFoldersGetALabelAddedInOneAndABodyLineAddedInTheOther() throws {
            try withPair { pair in
                try pair.anaSync.commit(pair.ana.updateCard("fix-login", CardUpdate(addedLabels: ["bug"])), message: CommitMessage(subject: "Label"))
                try pair.benSync.commit(pair.ben.updateCard("fix-login", CardUpdate(body: "Steps\nOpen the app\nSee the error\n")),
                                        message: CommitMessage(subject: "Body"))
                #expect(try pair.anaSync.state().outgoing == 1)
                #expect(try pair.anaSync.state().incoming == 1)

                let pushed = try pair.anaSync.push()
                #expect(pushed.pulls.map(\.kind) == [.merged])
                #expect(try pair.benSync.push().pulls.isEmpty)

                let (anaFiles, benFiles) = try pair.files()
                #expect(anaFiles == benFiles)
                let card = try pair.card(in: pair.ben)
                #expect(card.labels == ["bug"])
                #expect(try pair.ben.body(of: card) == "Steps\nOpen the app\nSee the error\n")
                #expect(try pair.anaSync.state().outgoing == 0 && pair.benSync.state().incoming == 0)
            }
        }

        @Test func aCardMovedInOneFolderAndEditedInTheOtherIsInOnePlaceWithTheEdit() throws {
            try withPair(anaClock: { Self.start + 60 }, benClock: { Self.start + 120 }) { pair in
                try pair.anaSync.commit(pair.ana.moveCard("fix-login", to: "done"), message: CommitMessage(subject: "Move"))
                try pair.benSync.commit(pair.ben.updateCard("fix-login", CardUpdate(title: "Fix the login page")),
                                        message: CommitMessage(subject: "Title"))
                try pair.benSync.push()
                try pair.anaSync.push()

                let (anaFiles, benFiles) = try pair.files()
                #expect(anaFiles == benFiles)
                #expect(anaFiles.keys.filter { $0.hasPrefix("cards/") } == ["cards/done/fix-login.md"])
                let card = try pair.card(in: pair.ana)
                #expect(card.column == "done")
                #expect(card.title == "Fix the login page")
            }
        }

        @Test func bothSidesChangingTheSameLineKeepTheLaterLineInPlaceAndTheOtherInASection() throws {
            try withPair(anaClock: { Self.start + 60 }, benClock: { Self.start + 120 }) { pair in
                try pair.anaSync.commit(pair.ana.updateCard("fix-login", CardUpdate(body: "Steps\nOpen the app on a phone\n")),
                                        message: CommitMessage(subject: "Ana's line"))
                try pair.benSync.commit(pair.ben.updateCard("fix-login", CardUpdate(body: "Steps\nOpen the app in a browser\n")),
                                        message: CommitMessage(subject: "Ben's line"))
                let pushed = try pair.anaSync.push()
                #expect(pushed.pulls.first?.resolutions.map(\.kind) == [.keptText])

                let (anaFiles, benFiles) = try pair.files()
                #expect(anaFiles == benFiles)
                let body = try pair.ana.body(of: pair.card(in: pair.ana))
                let sections = try #require(KeptText.sections(of: .conflict, in: body))
                #expect(sections.rest == "Steps\nOpen the app in a browser\n")
                #expect(sections.texts == ["Open the app on a phone\n"])
            }
        }

        @Test(arguments: [true, false])
        func aCardDeletedInOneFolderIsKeptOnlyWhenTheOtherEditedItLater(editedAfterDelete: Bool) throws {
            let editTime = Self.start + (editedAfterDelete ? 300 : 60)
            try withPair(anaClock: { Self.start + 120 }, benClock: { editTime }) { pair in
                try pair.anaSync.commit(pair.ana.deleteCard("fix-login"), message: CommitMessage(subject: "Delete"))
                try pair.benSync.commit(pair.ben.updateCard("fix-login", CardUpdate(addedLabels: ["ui"])), message: CommitMessage(subject: "Label"))
                let pushed = try pair.anaSync.push()
                #expect(pushed.pulls.first?.resolutions.map(\.kind) == [editedAfterDelete ? .keptAfterDelete : .deleted])
                try pair.benSync.push()

                let (anaFiles, benFiles) = try pair.files()
                #expect(anaFiles == benFiles)
                #expect((anaFiles["cards/todo/fix-login.md"] != nil) == editedAfterDelete)
                if editedAfterDelete { #expect(try pair.card(in: pair.ben).labels == ["ui"]) }
            }
        }

        @Test func foldersSyncedInTurnWhileBothChangeConverge() throws {
            try withPair(anaClock: { Self.start + 60 }, benClock: { Self.start + 90 }) { pair in
                try pair.anaSync.commit(pair.ana.createCard(title: "Write docs", in: "doing"), message: CommitMessage(subject: "Add"))
                try pair.benSync.commit(pair.ben.createCard(title: "Write docs", in: "todo", body: "Ben's notes\n"),
                                        message: CommitMessage(subject: "Add"))
                try pair.benSync.push()
                try pair.anaSync.commit(pair.ana.updateCard("fix-login", CardUpdate(addedLabels: ["ui"])), message: CommitMessage(subject: "Label"))
                try pair.benSync.commit(pair.ben.archiveCard("fix-login"), message: CommitMessage(subject: "Archive"))
                try pair.anaSync.push()
                try pair.benSync.push()

                let (anaFiles, benFiles) = try pair.files()
                #expect(anaFiles == benFiles)
                // Both "Write docs" cards are kept: one keeps the slug, the other gets a new one.
                let titles = try pair.ana.load(.all).cards.map(\.title).sorted()
                #expect(titles == ["Fix login", "Write docs", "Write docs"])
                let card = try pair.card(in: pair.ana)
                #expect(card.isArchived && card.labels == ["ui"])
            }
        }
    }
}
