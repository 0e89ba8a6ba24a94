import Foundation
import Testing

extension GitTests {
    /// `kanban sync --json`: the steps of the sync for a script, in the shape the page's `POST /api/sync` and the MCP
    /// `sync` tool answer with (one rule, `SyncJSON`).
    @Suite struct SyncJSONTests {
        @Test func printsTheStepsAndTheMessages() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Fix login bug"], in: ana).status == 0)
                let synced = try workspace.kanban(["sync", "--json"], in: ana)
                #expect(synced.status == 0, "\(synced)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(synced.stdout.utf8)) as? [String: Any])
                #expect(json["ok"] as? Bool == true)
                let steps = try #require(json["steps"] as? [[String: Any]])
                #expect(steps.map { $0["step"] as? String } == ["committed", "pulled", "pushed"])
                #expect(steps[0]["subject"] as? String == "Add \"Fix login bug\" to To Do")
                #expect((steps[0]["commit"] as? String)?.count == 40)
                #expect(steps[1]["kind"] as? String == "up-to-date")
                #expect(steps[2]["pushed"] as? Int == 1)
                #expect((json["messages"] as? [String])?.last == "pushed 1 commit to origin/main")
                // Only JSON on standard output: no line of the account printed beside it.
                #expect(synced.stdout.hasPrefix("{"), "\(synced.stdout)")
            }
        }

        @Test func aFailedSyncSaysWhyInTheJSONAndOnStandardError() throws {
            try withGitWorkspace { workspace in
                let alone = workspace.root + "/alone"
                try workspace.git(["init", "--quiet", alone], in: workspace.root)
                #expect(try workspace.kanban(["init", ".", "--title", "Alone"], in: alone).status == 0)
                let synced = try workspace.kanban(["sync", "--json"], in: alone)
                #expect(synced.status == 1, "\(synced)")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(synced.stdout.utf8)) as? [String: Any])
                #expect(json["ok"] as? Bool == false)
                #expect((json["steps"] as? [[String: Any]])?.first?["step"] as? String == "committed")
                #expect((json["error"] as? [String: Any])?["code"] as? String == "no-remote")
                #expect(synced.stderr.contains("error: the repository has no remote to sync with"))
            }
        }
    }
}
