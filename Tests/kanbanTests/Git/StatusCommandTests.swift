import Foundation
import Testing

extension GitTests {
    /// `kanban status [--json]`.
    @Suite struct StatusCommandTests {
        @Test func listsUncommittedChangesAsCards() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                for title in ["Fix login bug", "Old work", "Typo"] {
                    #expect(try workspace.kanban(["add", title, "--commit"], in: ana).status == 0)
                }
                #expect(try workspace.kanban(["add", "Write docs"], in: ana).status == 0)
                #expect(try workspace.kanban(["move", "fix-login-bug", "done"], in: ana).status == 0)
                #expect(try workspace.kanban(["archive", "old-work"], in: ana).status == 0)
                #expect(try workspace.kanban(["set", "typo", "--title", "Fix the typo"], in: ana).status == 0)

                let text = try workspace.kanban(["status"], in: ana)
                #expect(text.status == 0, "\(text)")
                #expect(text.stdout.lines == [
                    "Board \(ana) (found from the working directory)",
                    "On branch main, tracking origin/main: 3 ahead",
                    "Uncommitted board changes:",
                    "  archived  old-work  \"Old work\" from To Do",
                    "  moved     fix-login-bug  \"Fix login bug\": To Do → Done",
                    "  edited    typo  \"Fix the typo\" (title)",
                    "  added     write-docs  \"Write docs\" in To Do",
                    "Commit them with 'kanban sync' (or 'kanban sync --no-push').",
                ])

                let json = try workspace.kanban(["status", "--json"], in: ana)
                #expect(json.status == 0)
                let value = try decodeJSON(JSONValue.self, from: json.stdout)
                #expect(value.keys == ["ahead", "behind", "board", "boardChanged", "branch", "changes", "clean", "conflicts", "detached",
                                       "operation", "problems", "remotes", "state", "toTidy", "upstream"])
                #expect(value["board"]?["reason"] == .string("found"))
                #expect(value["state"] == .string("ready"))
                #expect(value["ahead"] == .number(3))
                #expect(value["clean"] == .bool(false))
                let moved = value["changes"]?.arrayValue?.first { $0["slug"] == .string("fix-login-bug") }
                #expect(moved?["kind"] == .string("moved"))
                #expect(moved?["from"] == .string("todo"))
                #expect(moved?["column"] == .string("done"))
                #expect(moved?["previousPath"] == .string("cards/todo/fix-login-bug.md"))
            }
        }

        @Test func saysWhenEverythingIsCommitted() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                let result = try workspace.kanban(["status"], in: ana)
                #expect(result.stdout.lines == ["Board \(ana) (found from the working directory)",
                                                "On branch main, tracking origin/main (up to date as of the last fetch)",
                                                "Nothing to commit: the board is as the last commit has it."])
                let json = try decodeJSON(JSONValue.self, from: try workspace.kanban(["status", "--json"], in: ana).stdout)
                #expect(json["clean"] == .bool(true))
                #expect(json["problems"] == .array([]))
            }
        }

        @Test func worksForABoardOutsideGitAndNamesProblems() throws {
            try withGitWorkspace { workspace in
                let plain = workspace.root + "/plain"
                #expect(try workspace.kanban(["init", plain], in: workspace.root).status == 0)
                let outside = try workspace.kanban(["status"], in: plain)
                #expect(outside.status == 0)
                #expect(outside.stdout == "Board \(plain) (found from the working directory)\nThe board is not in a git repository: it works, but does not sync.\n")
                let json = try decodeJSON(JSONValue.self, from: try workspace.kanban(["status", "--json"], in: plain).stdout)
                #expect(json["state"] == .string("not-a-repository"))
                #expect(json["problems"] == .array([.string("not-a-repository")]))

                let noGit = try workspace.kanban(["status"], in: plain, environment: ["KANBAN_GIT": "/nonexistent/git"])
                #expect(noGit.stdout.lines.dropFirst().first?.hasPrefix("git is not installed") == true, "\(noGit)")

                try workspace.git(["init", "--quiet", plain], in: workspace.root)
                let local = try workspace.kanban(["status"], in: plain)
                #expect(local.stdout.contains("No remote: add one with 'git remote add origin URL' to sync."), "\(local)")
                #expect(local.stdout.contains("board.md changed"))
            }
        }
    }
}
