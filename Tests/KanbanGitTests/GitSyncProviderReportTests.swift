import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// `GitSyncProvider.cardHistories()` over real repositories.
    @Suite struct GitSyncProviderReportTests {
        /// A card file in `column`.
        static func card(_ title: String, column: String) -> String {
            "---\ntitle: \(title)\ncolumn: \(column)\nlabels: [bug]\n---\n"
        }

        @Test func changesCarryTheirCommitsAuthorsAndAgents() throws {
            try withGitSandbox { sandbox in
                let directory = try sandbox.makeRepository(named: "board")
                let store = try sandbox.makeBoard(in: directory)
                try sandbox.git(["add", "--all"], in: directory)
                try sandbox.git(["commit", "--quiet", "-m", "Start"], in: directory)
                try sandbox.write(Self.card("Login", column: "todo"), to: directory + "/cards/todo/login.md")
                try sandbox.git(["add", "--all"], in: directory)
                try sandbox.git(["-c", "user.name=Ana Ölund", "-c", "user.email=ana@example.com", "commit", "--quiet", "-m", "Add login"],
                                in: directory)
                try sandbox.git(["mv", "cards/todo/login.md", "cards/doing/login.md"], in: directory)
                try sandbox.git(["-c", "user.name=Ben", "-c", "user.email=ben@example.com", "commit", "--quiet", "-m",
                                 "Move login\n\nKanban-Agent: bot-1"], in: directory)
                let histories = try sandbox.provider(store).cardHistories()
                let login = try #require(histories.first { $0.slug == "login" })
                #expect(login.changes.map(\.kind) == ["created", "moved"])
                #expect(login.changes.map(\.author) == [
                    CommitAuthor(name: "Ana Ölund", email: "ana@example.com", agent: nil),
                    CommitAuthor(name: "Ben", email: "ben@example.com", agent: "bot-1"),
                ])
            }
        }
    }
}
