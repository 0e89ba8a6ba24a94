import Foundation
import Testing

extension GitTests {
    /// `kanban watch --commit --sync`: external edits become one commit per burst, pushed while the tree is clean,
    /// and what a pull brings in is reported but not committed again.
    @Suite struct WatchCommitTests {
        @Test func commitsAnExternalEditAndPushesIt() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                var environment = workspace.environment
                environment["COLUMNS"] = "100"
                let watch = try WatchProcess(["watch", "--commit", "--commit-after", "0.3", "--sync", "0.5"],
                                             directory: ana, environment: environment)
                try watch.waitUntilReady()
                let before = try workspace.subjects(in: ana)

                // A card made by hand, outside kanban, as an editor or a script would.
                try workspace.write("---\ntitle: Hand made\ncolumn: todo\nposition: a5\n---\n\nBody.\n", to: ana + "/cards/todo/hand-made.md")
                let committed = watch.waitForLine { $0.hasPrefix("committed ") }
                #expect(committed?.contains("Add \"Hand made\" to To Do") == true, "\(watch)")
                #expect(watch.waitForLine { $0.hasPrefix("pushed 1 commit") } != nil, "\(watch)")

                // Ben pushes a move; Ana's watcher pulls it, reports it, and does not commit it again.
                let pulled = try workspace.kanban(["sync"], in: ben)
                #expect(pulled.status == 0, "\(pulled)")
                let move = try workspace.kanban(["move", "hand-made", "done", "--commit"], in: ben)
                #expect(move.status == 0, "\(move)")
                let push = try workspace.kanban(["sync"], in: ben)
                #expect(push.status == 0, "\(push)")
                #expect(watch.waitForLine { $0.contains("moved") && $0.contains("hand-made") } != nil, "\(watch)")

                #expect(try watch.stop(SIGTERM) == 0, "\(watch)")
                let subjects = try workspace.subjects(in: ana)
                #expect(subjects.count == before.count + 2, "one commit of Ana's, one pulled from Ben: \(subjects)")
                #expect(subjects.filter { $0.contains("Hand made") && $0.hasPrefix("Add") }.count == 1, "\(subjects)")
                #expect(try workspace.git(["status", "--porcelain"], in: ana).isEmpty, "nothing left uncommitted")
            }
        }

        @Test func syncWithoutCommitIsAUsageError() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                let result = try workspace.kanban(["watch", "--sync", "5"], in: ana)
                #expect(result.status == 64, "\(result)")
                #expect(result.stderr.contains("'--sync' goes with '--commit'"), "\(result)")
            }
        }
    }
}
