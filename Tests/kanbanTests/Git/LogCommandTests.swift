import Foundation
import Testing

extension GitTests {
    /// `kanban log CARD`.
    @Suite struct LogCommandTests {
        @Test func showsOneLinePerCommitAcrossColumnsAndTheArchive() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Fix login bug", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Unrelated", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["move", "fix-login-bug", "in-progress", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["move", "fix-login-bug", "done", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["archive", "fix-login-bug", "--commit"], in: ana).status == 0)

                let result = try workspace.kanban(["log", "fix-login-bug"], in: ana)
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.isEmpty)
                let lines = result.stdout.lines
                #expect(lines.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{7} \d{4}-\d\d-\d\d .+ \(Ana Lee\)/) != nil }, "\(lines)")
                #expect(lines.map { $0.dropFirst(19).replacingOccurrences(of: " (Ana Lee)", with: "") } == [
                    "Archive \"Fix login bug\"",
                    "Move \"Fix login bug\" from In Progress to Done",
                    "Move \"Fix login bug\" from To Do to In Progress",
                    "Add \"Fix login bug\" to To Do",
                ])

                let json = try decodeJSON([JSONValue].self, from: try workspace.kanban(["log", "fix-login-bug", "--json"], in: ana).stdout)
                #expect(json.count == 4)
                #expect(json[1].keys == ["author", "commit", "date", "path", "subject", "summary", "trailers"])
                #expect(json[1]["trailers"] == .object(["Card": .string("fix-login-bug"), "From": .string("in-progress"), "To": .string("done")]))
                #expect(json[1]["path"] == .string("cards/done/fix-login-bug.md"))
            }
        }

        @Test func showsTheCardsOwnLineOfACommitOfSeveralCards() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "First"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Second", "--column", "done"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.subjects(in: ana, count: 1) == ["Add 2 cards"])
                let result = try workspace.kanban(["log", "second"], in: ana)
                #expect(result.stdout.lines.map { String($0.dropFirst(19)) } == ["Add \"Second\" to Done (Ana Lee)"], "\(result)")
            }
        }

        @Test func findsADeletedCardBySlug() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Gone soon", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["delete", "gone-soon", "--commit"], in: ana).status == 0)
                let result = try workspace.kanban(["log", "gone-soon"], in: ana)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.lines.count == 2)
                #expect(result.stdout.lines.first?.contains("Delete \"Gone soon\"") == true)

                let never = try workspace.kanban(["log", "never-existed"], in: ana)
                #expect(never.status == 0)
                #expect(never.stdout.isEmpty)
                #expect(never.stderr == "no commit touches 'never-existed' yet\n")
            }
        }

        @Test func failsOutsideGit() throws {
            try withGitWorkspace { workspace in
                let plain = workspace.root + "/plain"
                #expect(try workspace.kanban(["init", plain], in: workspace.root).status == 0)
                #expect(try workspace.kanban(["add", "Here"], in: plain).status == 0)
                let result = try workspace.kanban(["log", "here"], in: plain)
                #expect(result.status == 1)
                #expect(result.stderr.hasPrefix("error: the board is not in a git repository"))
            }
        }
    }
}
