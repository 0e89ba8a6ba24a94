import Foundation
import Testing

extension GitTests {
    /// `kanban report`, on histories made with fixed commit dates.
    @Suite struct ReportCommandTests {
        /// `2026-01-05T10:00:00Z` plus `days`.
        static func date(_ days: Int) -> String {
            String(format: "2026-01-%02dT10:00:00Z", 5 + days)
        }

        static func dated(_ days: Int) -> [String: String] {
            ["GIT_AUTHOR_DATE": date(days), "GIT_COMMITTER_DATE": date(days)]
        }

        /// Runs `kanban` as of day `days`, requiring success.
        @discardableResult
        static func kanban(_ workspace: GitWorkspace, _ arguments: [String], in directory: String, day days: Int,
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> KanbanProcess.Output {
            let result = try workspace.kanban(arguments, in: directory, environment: dated(days))
            try #require(result.status == 0, "\(arguments): \(result)", sourceLocation: sourceLocation)
            return result
        }

        /// Commits everything in `directory` with plain git as of day `days`.
        static func commitAll(_ workspace: GitWorkspace, in directory: String, day days: Int, message: String) throws {
            try workspace.git(["add", "--all"], in: directory)
            let result = try workspace.run(["commit", "--quiet", "-m", message], in: directory, environment: dated(days))
            try #require(result.status == 0, "\(result)")
        }

        static func report(_ workspace: GitWorkspace, in directory: String, _ extra: [String] = []) throws -> JSONValue {
            let result = try workspace.kanban(["report", "--json", "--until", "2026-01-31"] + extra, in: directory)
            try #require(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            return try decodeJSON(JSONValue.self, from: result.stdout)
        }

        static func card(_ report: JSONValue, _ slug: String) throws -> JSONValue {
            try #require(report["cards"]?.arrayValue?.first { $0["slug"] == .string(slug) }, "no card \(slug) in \(report)")
        }

        static func kinds(_ card: JSONValue) -> [String] {
            (card["changes"]?.arrayValue ?? []).map { change in
                "\(change["kind"]?.stringValue ?? "?") \(change["to"]?.stringValue ?? "-") \(change["time"]?.stringValue?.prefix(10) ?? "")"
            }
        }

        @Test func knownLeadAndCycleTimesAndAReopenedCard() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try Self.kanban(workspace, ["add", "Alpha", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["add", "Beta", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["move", "alpha", "in-progress", "--commit"], in: ana, day: 1)
                try Self.kanban(workspace, ["move", "beta", "in-progress", "--commit"], in: ana, day: 2)
                try Self.kanban(workspace, ["move", "alpha", "done", "--commit"], in: ana, day: 3)
                try Self.kanban(workspace, ["move", "beta", "done", "--commit"], in: ana, day: 4)
                try Self.kanban(workspace, ["move", "beta", "in-progress", "--commit"], in: ana, day: 5)
                try Self.kanban(workspace, ["move", "beta", "done", "--commit"], in: ana, day: 7)

                let report = try Self.report(workspace, in: ana)
                let alpha = try Self.card(report, "alpha")
                #expect(alpha["leadTimeDays"] == .number(3))
                #expect(alpha["cycleTimeDays"] == .number(2))
                #expect(alpha["started"] == .string(Self.date(1)))
                #expect(alpha["timeInColumn"] == .object(["todo": .number(1), "in-progress": .number(2)]))
                let beta = try Self.card(report, "beta")
                #expect(beta["finished"] == .string(Self.date(7)))
                #expect(beta["leadTimeDays"] == .number(7))
                #expect(beta["cycleTimeDays"] == .number(5))
                #expect(Self.kinds(beta) == ["created todo 2026-01-05", "moved in-progress 2026-01-07", "moved done 2026-01-09",
                                             "moved in-progress 2026-01-10", "moved done 2026-01-12"])
                #expect(report["finished"] == .number(2))
                #expect(report["cycleTime"]?["median"] == .number(3.5))
                #expect(report["leadTime"]?["percentile85"] == .number(7))
                #expect(report["workInProgress"] == .object(["todo": .number(0), "in-progress": .number(0), "done": .number(2)]))
                #expect(report["throughput"] == .array([.object(["week": .string("2026-01-05"), "finished": .number(1)]),
                                                        .object(["week": .string("2026-01-12"), "finished": .number(1)]),
                                                        .object(["week": .string("2026-01-19"), "finished": .number(0)]),
                                                        .object(["week": .string("2026-01-26"), "finished": .number(0)])]))
                #expect(report["flow"]?.arrayValue?.first?["counts"] == .object(["todo": .number(2), "in-progress": .number(0), "done": .number(0)]))

                // Before beta came back, it was open again.
                let earlier = try workspace.kanban(["report", "--json", "--until", "2026-01-10T12:00:00Z"], in: ana)
                let reopened = try Self.card(try decodeJSON(JSONValue.self, from: earlier.stdout), "beta")
                #expect(reopened["finished"] == .null)
                #expect(reopened["state"] == .string("started"))
            }
        }

        @Test func movesByHandARenamedColumnTheArchiveAndADelete() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                for title in ["A", "B", "C"] { try Self.kanban(workspace, ["add", title, "--commit"], in: ana, day: 0) }
                // git mv, then two cards moved in one commit with plain mv.
                try workspace.git(["mv", "cards/todo/a.md", "cards/in-progress/a.md"], in: ana)
                try Self.commitAll(workspace, in: ana, day: 1, message: "Start A")
                for slug in ["b", "c"] {
                    try FileManager.default.moveItem(atPath: "\(ana)/cards/todo/\(slug).md", toPath: "\(ana)/cards/in-progress/\(slug).md")
                }
                try Self.commitAll(workspace, in: ana, day: 2, message: "Start B and C")
                // The column in-progress becomes doing: board.md and the directory.
                let boardFile = try workspace.read(ana + "/board.md")
                try workspace.write(boardFile.replacingOccurrences(of: "id: in-progress", with: "id: doing"), to: ana + "/board.md")
                try workspace.git(["mv", "cards/in-progress", "cards/doing"], in: ana)
                try Self.commitAll(workspace, in: ana, day: 3, message: "Rename the column")
                try Self.kanban(workspace, ["move", "a", "done", "--commit"], in: ana, day: 4)
                try Self.kanban(workspace, ["archive", "a", "--commit"], in: ana, day: 5)
                try Self.kanban(workspace, ["unarchive", "a", "--commit"], in: ana, day: 6)
                try Self.kanban(workspace, ["archive", "a", "--commit"], in: ana, day: 8)
                try Self.kanban(workspace, ["delete", "c", "--commit"], in: ana, day: 7)
                try Self.kanban(workspace, ["add", "Not committed yet"], in: ana, day: 9)

                let report = try Self.report(workspace, in: ana)
                #expect(report["columns"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["todo", "doing", "done"])
                let a = try Self.card(report, "a")
                #expect(Self.kinds(a) == ["created todo 2026-01-05", "moved doing 2026-01-06", "moved done 2026-01-09",
                                          "archived archive 2026-01-10", "unarchived done 2026-01-11", "archived archive 2026-01-13"])
                #expect(a["finished"] == .string(Self.date(4)))
                #expect(a["cycleTimeDays"] == .number(3))
                #expect(a["state"] == .string("archived"))
                #expect(a["column"] == .string("done"))
                let b = try Self.card(report, "b")
                #expect(Self.kinds(b) == ["created todo 2026-01-05", "moved doing 2026-01-07"])
                let c = try Self.card(report, "c")
                #expect(Self.kinds(c).last == "deleted - 2026-01-12")
                #expect(c["state"] == .string("deleted"))
                #expect(c["finished"] == .null)
                #expect(report["workInProgress"] == .object(["todo": .number(0), "doing": .number(1), "done": .number(0)]))
                #expect(report["finished"] == .number(1))
                #expect(report["notInHistory"] == .array([.string("not-committed-yet")]))
                // The deleted card counted in doing until the delete; the card archived from done stays in done.
                let flow = report["flow"]?.arrayValue ?? []
                #expect(flow.first { $0["date"] == .string("2026-01-11") }?["counts"] == .object(["todo": .number(0), "doing": .number(2), "done": .number(1)]))
                #expect(flow.first { $0["date"] == .string("2026-01-12") }?["counts"] == .object(["todo": .number(0), "doing": .number(1), "done": .number(1)]))
            }
        }

        @Test func twoClonesMergedCountEachChangeOnceAndFollowACardTheSyncRenamed() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                try Self.kanban(workspace, ["add", "Write docs", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["add", "Shared", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["sync"], in: ana, day: 0)
                // Ben adds a card of the same name before he syncs: his sync renames his card (made later), in its
                // merge. It is written by hand so that it is made later than Ana's whatever the clock says.
                try workspace.write("---\ntitle: Write docs\ncolumn: todo\nposition: n\ncreated: 2030-01-01T00:00:00Z\n"
                                    + "modified: 2030-01-01T00:00:00Z\nlabels: []\n---\n\nBen's notes.\n", to: ben + "/cards/todo/write-docs.md")
                try Self.commitAll(workspace, in: ben, day: 1, message: "Add Ben's card")
                try Self.kanban(workspace, ["move", "write-docs", "in-progress", "--commit"], in: ben, day: 2)
                let synced = try Self.kanban(workspace, ["sync"], in: ben, day: 2)
                #expect(synced.stdout.contains("this one is now write-docs-"), "\(synced)")
                // Both change cards at once, and merge each other's changes.
                try Self.kanban(workspace, ["move", "shared", "in-progress", "--commit"], in: ben, day: 3)
                try Self.kanban(workspace, ["move", "write-docs", "done", "--commit"], in: ana, day: 3)
                try Self.kanban(workspace, ["sync"], in: ana, day: 3)
                try Self.kanban(workspace, ["sync"], in: ben, day: 4)
                try Self.kanban(workspace, ["move", "shared", "done", "--commit"], in: ben, day: 5)
                try Self.kanban(workspace, ["sync"], in: ben, day: 5)
                try Self.kanban(workspace, ["sync"], in: ana, day: 6)
                #expect(Int(try workspace.git(["rev-list", "--merges", "--count", "HEAD"], in: ana)) ?? 0 >= 2)

                for clone in [ana, ben] {
                    let report = try Self.report(workspace, in: clone)
                    let cards = report["cards"]?.arrayValue ?? []
                    #expect(cards.count == 3)
                    let docs = try Self.card(report, "write-docs")
                    #expect(Self.kinds(docs) == ["created todo 2026-01-05", "moved done 2026-01-08"])
                    #expect(docs["previousSlugs"] == .array([]))
                    let renamed = try #require(cards.first { $0["slug"]?.stringValue?.hasPrefix("write-docs-") == true })
                    #expect(renamed["previousSlugs"] == .array([.string("write-docs")]))
                    #expect(Self.kinds(renamed) == ["created todo 2026-01-06", "moved in-progress 2026-01-07"])
                    let shared = try Self.card(report, "shared")
                    #expect(Self.kinds(shared) == ["created todo 2026-01-05", "moved in-progress 2026-01-08", "moved done 2026-01-10"])
                    #expect(shared["cycleTimeDays"] == .number(2))
                    #expect(report["finished"] == .number(2))
                }
            }
        }

        @Test func aRebaseKeepsTheTimeOfAChangeAndAPlainMergeCountsEachOnce() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                // As kanban git-setup sets it: a column emptied by moves is not a renamed directory.
                for clone in [ana, ben] { try workspace.git(["config", "merge.directoryRenames", "false"], in: clone) }
                try Self.kanban(workspace, ["add", "Alpha", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["add", "Beta", "--commit"], in: ana, day: 0)
                try workspace.git(["push", "--quiet"], in: ana)
                try workspace.git(["pull", "--quiet"], in: ben)
                try Self.kanban(workspace, ["move", "alpha", "in-progress", "--commit"], in: ana, day: 1)
                try workspace.git(["push", "--quiet"], in: ana)
                // Ben's move is rebased onto Ana's days later: it still counts at its own time.
                try Self.kanban(workspace, ["move", "beta", "done", "--commit"], in: ben, day: 2)
                let rebase = try workspace.run(["pull", "--quiet", "--rebase"], in: ben, environment: Self.dated(5))
                try #require(rebase.status == 0, "\(rebase)")
                try workspace.git(["push", "--quiet"], in: ben)
                // Then a plain merge of two clones' moves.
                try Self.kanban(workspace, ["move", "alpha", "done", "--commit"], in: ana, day: 6)
                try workspace.git(["fetch", "--quiet"], in: ana)
                let merge = try workspace.run(["merge", "--quiet", "--no-edit", "origin/main"], in: ana, environment: Self.dated(7))
                try #require(merge.status == 0, "\(merge)")
                try workspace.git(["push", "--quiet"], in: ana)
                try Self.kanban(workspace, ["move", "beta", "in-progress", "--commit"], in: ben, day: 7)
                try workspace.git(["fetch", "--quiet"], in: ben)
                let second = try workspace.run(["merge", "--quiet", "--no-edit", "origin/main"], in: ben, environment: Self.dated(8))
                try #require(second.status == 0, "\(second)")
                try workspace.git(["push", "--quiet", "origin", "HEAD:main"], in: ben)
                try workspace.git(["pull", "--quiet", "--no-rebase"], in: ana)

                for clone in [ana, ben] {
                    let report = try Self.report(workspace, in: clone)
                    #expect(Self.kinds(try Self.card(report, "alpha")) == ["created todo 2026-01-05", "moved in-progress 2026-01-06",
                                                                           "moved done 2026-01-11"])
                    #expect(Self.kinds(try Self.card(report, "beta")) == ["created todo 2026-01-05", "moved done 2026-01-07",
                                                                          "moved in-progress 2026-01-12"])
                }
            }
        }

        @Test func readsABoardInASubdirectoryOfItsRepository() throws {
            try withGitWorkspace { workspace in
                let repository = workspace.root + "/app"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                let board = repository + "/planning"
                try Self.kanban(workspace, ["init", board, "--title", "App"], in: workspace.root, day: 0)
                try workspace.write("code\n", to: repository + "/cards/todo/not-a-card.md")
                try Self.commitAll(workspace, in: repository, day: 0, message: "Start")
                try Self.kanban(workspace, ["add", "Alpha", "--commit"], in: board, day: 0)
                try Self.kanban(workspace, ["move", "alpha", "done", "--commit"], in: board, day: 2)
                try workspace.write("more code\n", to: repository + "/cards/todo/not-a-card.md")
                try Self.commitAll(workspace, in: repository, day: 3, message: "Code")

                let report = try Self.report(workspace, in: board)
                #expect(report["cards"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["alpha"])
                #expect(try Self.card(report, "alpha")["leadTimeDays"] == .number(2))
            }
        }

        @Test func printsTheSummaryAndChartsAndWritesStandaloneFiles() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try Self.kanban(workspace, ["add", "Alpha", "--commit"], in: ana, day: 0)
                try Self.kanban(workspace, ["move", "alpha", "in-progress", "--commit"], in: ana, day: 1)
                try Self.kanban(workspace, ["move", "alpha", "done", "--commit"], in: ana, day: 3)
                try Self.kanban(workspace, ["add", "Beta", "--commit"], in: ana, day: 3)
                try Self.kanban(workspace, ["move", "beta", "in-progress", "--commit"], in: ana, day: 4)

                let result = try workspace.kanban(["report", "--until", "2026-01-20", "--svg", "flow.svg", "--html", "flow.html"], in: ana,
                                                  environment: ["COLUMNS": "100"])
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.isEmpty)
                let lines = result.stdout.lines
                #expect(lines.first == "Team  2026-01-05 to 2026-01-20 (15.6 days)")
                #expect(lines.contains("Finished     1 card, 0.4 a week  (started 2, created 2)"))
                #expect(lines.contains("Cycle time   median 2.0 days, 85th percentile 2.0, mean 2.0"))
                #expect(lines.contains("Now          To Do 0 · In Progress 1 · Done 1"))
                #expect(lines.contains { $0 == "   11.6 d  In Progress  beta  Beta  past the SLE" }, "\(result.stdout)")
                #expect(lines.contains("Cumulative flow (cards in each column at the end of each day)"))
                #expect(lines.contains("Throughput (cards finished each week)"))
                #expect(lines.contains("Cycle time of each finished card"))
                #expect(!result.stdout.contains("\u{1B}"))
                let coloured = try workspace.kanban(["report", "--until", "2026-01-20", "--color", "always"], in: ana)
                #expect(coloured.stdout.contains("\u{1B}[1mFinished"))
                #expect(coloured.stdout.contains("█"))
                #expect(lines.allSatisfy { $0.count <= 100 })

                for name in ["flow.svg", "flow.html"] {
                    let text = try workspace.read(ana + "/" + name)
                    #expect(text.contains("<svg"))
                    #expect(text.contains("<polygon"))
                    #expect(!text.contains("<script"))
                    #expect(!text.contains("http://") || text.contains("xmlns=\"http://www.w3.org/2000/svg\""))
                }
            }
        }

        @Test func reportsBadInputAndABoardOutsideGit() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                let badDate = try workspace.kanban(["report", "--since", "yesterday"], in: ana)
                #expect(badDate.status == 64)
                #expect(badDate.stderr.contains("invalid date 'yesterday' for option '--since'"))
                let backwardsPeriod = try workspace.kanban(["report", "--since", "2026-02-01", "--until", "2026-01-01"], in: ana)
                #expect(backwardsPeriod.status == 64)
                #expect(backwardsPeriod.stderr.contains("--since 2026-02-01 comes after --until 2026-01-01"))
                let badLabel = try workspace.kanban(["report", "--label", "nope"], in: ana)
                #expect(badLabel.status == 1)
                #expect(badLabel.stderr.contains("no label 'nope'"))
                let badColumn = try workspace.kanban(["report", "--done", "shipped"], in: ana)
                #expect(badColumn.status == 1)
                #expect(badColumn.stderr.contains("no column 'shipped'"))
                let backwards = try workspace.kanban(["report", "--start", "done", "--done", "in-progress"], in: ana)
                #expect(backwards.status == 1)
                #expect(backwards.stderr.contains("comes after the done column"))
                let help = try workspace.kanban(["report", "--help"], in: ana)
                #expect(help.status == 0)
                #expect(help.stdout.contains("USAGE: kanban report"))
                #expect(help.stdout.contains("--since <date>"))

                let outside = workspace.root + "/plain"
                #expect(try workspace.kanban(["init", outside], in: workspace.root).status == 0)
                let notGit = try workspace.kanban(["report"], in: outside)
                #expect(notGit.status == 1)
                #expect(notGit.stderr.contains("not in a git repository"))
            }
        }
    }
}
