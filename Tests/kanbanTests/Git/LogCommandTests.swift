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

            }
        }

        @Test func failsOnANameNoCardEverHadAndSuggestsTheClosest() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Fix login bug", "--commit"], in: ana).status == 0)
                let never = try workspace.kanban(["log", "fix-logn-bug"], in: ana)
                #expect(never.status == 1, "\(never)")
                #expect(never.stdout.isEmpty)
                #expect(never.stderr.lines == ["error: no card on the board or in its history matches 'fix-logn-bug'",
                                               "  Did you mean: fix-login-bug?"], "\(never)")
                // A card on the board not committed yet is no error.
                #expect(try workspace.kanban(["add", "Not yet"], in: ana).status == 0)
                let uncommitted = try workspace.kanban(["log", "not-yet"], in: ana)
                #expect(uncommitted.status == 0, "\(uncommitted)")
                #expect(uncommitted.stderr == "no commit touches 'not-yet' yet\n")
            }
        }

        @Test func followsTheCardAcrossAGitMvOfItsFile() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Fix login", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["move", "fix-login", "in-progress", "--commit"], in: ana).status == 0)
                try workspace.git(["mv", "cards/in-progress/fix-login.md", "cards/in-progress/fix-login-bug.md"], in: ana)
                try workspace.git(["commit", "--quiet", "-m", "Rename the card"], in: ana)
                #expect(try workspace.kanban(["move", "fix-login-bug", "done", "--commit"], in: ana).status == 0)
                let result = try workspace.kanban(["log", "fix-login-bug"], in: ana)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.lines.map { $0.dropFirst(19).replacingOccurrences(of: " (Ana Lee)", with: "") } == [
                    "Move \"Fix login\" from In Progress to Done",
                    "Rename the card",
                    "Move \"Fix login\" from To Do to In Progress",
                    "Add \"Fix login\" to To Do",
                ], "\(result)")
            }
        }

        /// Two cards added under one slug on two clones: the sync's merge gives one a new slug, and its log goes on
        /// under the old one.
        @Test func followsTheCardAcrossASlugASyncGaveIt() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Write docs", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Write docs", "--column", "done", "--commit"], in: ben).status == 0)
                #expect(try workspace.kanban(["move", "write-docs", "in-progress", "--commit"], in: ben).status == 0)
                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                let renamed = try #require(try workspace.git(["ls-files", "cards"], in: ben).split(separator: "\n")
                    .map(String.init).first { $0.contains("write-docs-") }, "\(synced)")
                let slug = String(try #require(renamed.split(separator: "/").last).dropLast(3))
                let result = try workspace.kanban(["log", slug], in: ben)
                #expect(result.status == 0, "\(result)")
                let summaries = result.stdout.lines.map { String($0.dropFirst(19)) }
                // Cards created in the same second are told apart by their bytes: either may be the one renamed.
                if renamed.hasPrefix("cards/todo/") {
                    #expect(summaries.last == "Add \"Write docs\" to To Do (Ana Lee)", "\(result)")
                    #expect(!summaries.contains { $0.contains("Done") }, "\(result)")
                } else {
                    #expect(summaries.last == "Add \"Write docs\" to Done (Ben Ode)", "\(result)")
                    #expect(summaries.contains("Move \"Write docs\" from Done to In Progress (Ben Ode)"), "\(result)")
                    #expect(!summaries.contains { $0.contains("Ana Lee") }, "\(result)")
                }
                #expect(summaries.filter { $0.hasPrefix("Add ") }.count == 1, "\(result)")
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
