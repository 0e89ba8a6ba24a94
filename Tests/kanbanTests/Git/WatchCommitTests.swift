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

        @Test func watchersOnTwoClonesConvergeOnOneBoard() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                #expect(try workspace.kanban(["add", "Shared", "--body", "Plan:\n- first\n"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                var watches: [WatchProcess] = []
                defer { for watch in watches { _ = try? watch.stop(SIGTERM) } }
                for clone in [ana, ben] {
                    let watch = try WatchProcess(["watch", "--commit", "--commit-after", "0.3", "--sync", "0.5"],
                                                 directory: clone, environment: workspace.environment)
                    try watch.waitUntilReady()
                    watches.append(watch)
                }
                // Both edit the same line of one card by hand, at once; each adds a card of their own.
                let card = "/cards/todo/shared.md"
                let text = try workspace.read(ana + card)
                try workspace.write(text.replacingOccurrences(of: "- first\n", with: "- first, says Ana\n"), to: ana + card)
                try workspace.write(text.replacingOccurrences(of: "- first\n", with: "- first, says Ben\n"), to: ben + card)
                try workspace.write("---\ntitle: From Ana\ncolumn: todo\nposition: t\n---\n\nA.\n", to: ana + "/cards/todo/from-ana.md")
                try workspace.write("---\ntitle: From Ben\ncolumn: done\nposition: t\n---\n\nB.\n", to: ben + "/cards/done/from-ben.md")

                // Within a generous bound, both clones hold the remote's tip, with nothing left to commit.
                let remote = workspace.root + "/remote.git"
                var converged = false
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline && !converged {
                    Thread.sleep(forTimeInterval: 0.5)
                    let tip = try workspace.git(["rev-parse", "main"], in: remote)
                    converged = try [ana, ben].allSatisfy { clone in
                        try workspace.git(["rev-parse", "HEAD"], in: clone) == tip
                            && workspace.git(["status", "--porcelain"], in: clone).isEmpty
                    }
                }
                #expect(converged, "\(watches[0])\n\(watches[1])")
                for watch in watches { #expect(try watch.stop(SIGTERM) == 0, "\(watch)") }
                watches = []
                let shared = try workspace.read(ana + card)
                #expect(shared == (try workspace.read(ben + card)))
                #expect(shared.contains("- first, says Ana") && shared.contains("- first, says Ben"), "\(shared)")
                for clone in [ana, ben] {
                    #expect(workspace.exists(clone + "/cards/todo/from-ana.md") && workspace.exists(clone + "/cards/done/from-ben.md"))
                }
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
