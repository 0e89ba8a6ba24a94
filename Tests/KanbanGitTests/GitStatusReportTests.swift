import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// Reading `git status --porcelain=v2 -z --branch`.
    @Suite struct GitStatusReportTests {
        private let zeros = String(repeating: "0", count: 40)
        private let hash = String(repeating: "a", count: 40)

        @Test func readsBranchHeaders() {
            let report = GitStatusReport(records: ["# branch.oid \(hash)", "# branch.head main", "# branch.upstream origin/main",
                                                   "# branch.ab +2 -3"])
            #expect(report.branch == "main")
            #expect(!report.isDetached)
            #expect(!report.isUnborn)
            #expect(report.upstream == "origin/main")
            #expect(report.ahead == 2)
            #expect(report.behind == 3)
            #expect(report.entries.isEmpty)
        }

        @Test func readsDetachedAndUnbornHeads() {
            #expect(GitStatusReport(records: ["# branch.oid \(hash)", "# branch.head (detached)"]).isDetached)
            let unborn = GitStatusReport(records: ["# branch.oid (initial)", "# branch.head main"])
            #expect(unborn.isUnborn)
            #expect(unborn.ahead == nil)
        }

        @Test func readsEntriesWithSpacesInPaths() {
            let report = GitStatusReport(records: [
                "1 .M N... 100644 100644 100644 \(hash) \(hash) cards/todo/fix login.md",
                "1 .D N... 100644 100644 000000 \(hash) \(hash) cards/todo/gone.md",
                "1 A. N... 000000 100644 100644 \(zeros) \(hash) cards/todo/new.md",
                "2 R. N... 100644 100644 100644 \(hash) \(hash) R85 cards/done/moved.md", "cards/todo/moved.md",
                "u UU N... 100644 100644 100644 100644 \(hash) \(hash) \(hash) board.md",
                "? cards/doing/untracked file.md",
                "! ignored.txt",
            ])
            let byPath = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.path, $0) })
            #expect(report.entries.count == 7)
            #expect(byPath["cards/todo/fix login.md"]?.isInHead == true)
            #expect(byPath["cards/todo/fix login.md"]?.isInWorkingTree == true)
            #expect(byPath["cards/todo/gone.md"]?.isInWorkingTree == false)
            #expect(byPath["cards/todo/new.md"]?.isInHead == false)
            #expect(byPath["cards/todo/moved.md"]?.isInHead == true)
            #expect(byPath["cards/todo/moved.md"]?.isInWorkingTree == false)
            #expect(byPath["cards/done/moved.md"]?.isInHead == false)
            #expect(byPath["cards/done/moved.md"]?.isInWorkingTree == true)
            #expect(byPath["board.md"]?.isConflicted == true)
            #expect(byPath["cards/doing/untracked file.md"]?.isInWorkingTree == true)
            #expect(byPath["ignored.txt"] == nil)
        }

        @Test func mergesARenamedAwayPathThatIsBackAsUntracked() {
            let report = GitStatusReport(records: [
                "2 R. N... 100644 100644 100644 \(hash) \(hash) R100 cards/done/a.md", "cards/todo/a.md",
                "? cards/todo/a.md",
            ])
            let entry = report.entries.first { $0.path == "cards/todo/a.md" }
            #expect(entry?.isInHead == true)
            #expect(entry?.isInWorkingTree == true)
        }

        @Test func ignoresMalformedRecords() {
            let report = GitStatusReport(records: ["1 .M short", "2 R. too few", "u", "#", "", "x something"])
            #expect(report.entries.isEmpty)
        }
    }
}
