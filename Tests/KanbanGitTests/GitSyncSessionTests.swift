import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// What an app that embeds the libraries gets: the same sync and commits as `kanban`, through a ``BoardSession``,
    /// without running the executable.
    @Suite struct GitSyncSessionTests {
        @Test func twoAppsSyncThroughTheLibraryAndEndOnTheSameBoard() throws {
            try withGitSandbox { sandbox in
                let (ana, ben) = try sandbox.makeSharedBoard()
                let anaSession = BoardSession(store: ana, sync: sandbox.provider(ana), commitPolicy: .always)
                let benSession = BoardSession(store: ben, sync: sandbox.provider(ben), commitPolicy: .never)

                let (_, committed) = try anaSession.change { store in ((), [try store.createCard(title: "From Ana", in: "todo")]) }
                #expect(committed.commit?.message.subject == "Add \"From Ana\" to To Do")
                // Ben's change is not committed as it is made; the sync commits it.
                _ = try benSession.change { store in ((), [try store.createCard(title: "From Ben", in: "doing")]) }

                var heard: [String] = []
                let anaReport = try anaSession.sync { step in heard += step.lines(board: nil).map(\.text) }
                #expect(anaReport.steps.count == 2)
                #expect(heard.last == "pushed 1 commit to origin/main")

                let benReport = try benSession.sync()
                let lines = benReport.lines(board: try ben.loadBoard()).map(\.text)
                #expect(lines.first?.hasPrefix("committed ") == true, "\(lines)")
                #expect(lines.contains("pulled 1 commit from origin/main and merged it with your commit"), "\(lines)")
                #expect(lines.last == "pushed 2 commits to origin/main", "\(lines)")

                _ = try anaSession.sync()
                let titles = { (store: BoardStore) in try store.load().cards.map(\.title).sorted() }
                #expect(try titles(ana) == ["From Ana", "From Ben"])
                #expect(try titles(ben) == titles(ana))
            }
        }

        @Test func aSyncWithoutARemoteCommitsAndSaysWhatToDo() throws {
            try withGitSandbox { sandbox in
                let directory = try sandbox.makeRepository(named: "alone")
                let store = try sandbox.makeBoard(in: directory)
                let session = BoardSession(store: store, sync: sandbox.provider(store))
                var steps: [SyncStep] = []
                #expect {
                    _ = try session.sync { steps.append($0) }
                } throws: { error in
                    guard let error = error as? SyncError else { return false }
                    return error.code == .noRemote && error.hint?.contains("committed locally") == true
                }
                guard case .committed? = steps.first else {
                    Issue.record("the board's changes were not committed first: \(steps)")
                    return
                }
            }
        }
    }
}
