import Foundation
import Testing
@testable import KanbanCore

/// The tests of `KanbanCore/Report`, grouped so that `--filter ReportTests` runs them all.
@Suite struct ReportTests {}

extension ReportTests {
    /// Following cards through a log: moves, renames, deletes, merges and renamed columns.
    @Suite struct BoardHistoryTests {
        typealias Change = HistoryLog.FileChange

        static func commit(_ hash: String, _ time: Int64, parents: Int = 1, _ changes: [Change]) -> HistoryLog.Commit {
            HistoryLog.Commit(hash: hash, time: time, parentCount: parents, changes: changes)
        }
        static func add(_ path: String, _ object: String) -> Change { Change(path: path, before: [nil], after: object) }
        static func remove(_ path: String, _ object: String) -> Change { Change(path: path, before: [object], after: nil) }
        static func modify(_ path: String, _ old: String, _ new: String) -> Change { Change(path: path, before: [old], after: new) }

        static func board(_ columns: [(String, String)]) -> [UInt8] {
            Array(("---\ntitle: T\ncolumns:\n" + columns.map { "  - id: \($0.0)\n    name: \($0.1)\n" }.joined() + "---\n").utf8)
        }
        static func card(_ title: String, labels: String = "[]", column: String = "todo") -> [UInt8] {
            Array("---\ntitle: \(title)\ncolumn: \(column)\nlabels: \(labels)\n---\n".utf8)
        }

        func histories(_ commits: [HistoryLog.Commit], objects: [String: [UInt8]] = [:]) -> BoardHistory {
            BoardHistory(HistoryLog(commits: commits)) { wanted in objects.filter { wanted.contains($0.key) } }
        }

        func places(_ history: CardHistory) -> [String] {
            history.changes.map { change in
                switch change.to {
                case .column(let id): return id
                case .archived: return "archive"
                case .deleted: return "deleted"
                }
            }
        }

        @Test func followsMovesMadeByHandAndSeveralInOneCommit() {
            let history = histories([
                Self.commit("c1", 100, [Self.add("cards/todo/a.md", "a1"), Self.add("cards/todo/b.md", "b1")]),
                // git mv: the same bytes under another column.
                Self.commit("c2", 200, [Self.remove("cards/todo/a.md", "a1"), Self.add("cards/doing/a.md", "a1")]),
                // Both moved in one commit, with their files changed.
                Self.commit("c3", 300, [Self.remove("cards/doing/a.md", "a1"), Self.add("cards/done/a.md", "a2"),
                                        Self.remove("cards/todo/b.md", "b1"), Self.add("cards/done/b.md", "b2")]),
            ])
            #expect(history.cards.map(\.slug) == ["a", "b"])
            #expect(places(history.cards[0]) == ["todo", "doing", "done"])
            #expect(places(history.cards[1]) == ["todo", "done"])
            #expect(history.cards[0].changes.map(\.commit) == ["c1", "c2", "c3"])
            #expect(history.cards[0].changes.map(\.kind) == ["created", "moved", "moved"])
        }

        @Test func followsTheArchiveADeleteAndTitlesFromTheLastVersion() {
            let history = histories([
                Self.commit("c1", 100, [Self.add("cards/done/a.md", "a1"), Self.add("cards/todo/gone.md", "g1")]),
                Self.commit("c2", 200, [Self.remove("cards/done/a.md", "a1"), Self.add("archive/2026-01-02-a.md", "a2")]),
                Self.commit("c3", 300, [Self.remove("archive/2026-01-02-a.md", "a2"), Self.add("cards/todo/a.md", "a3")]),
                Self.commit("c4", 400, [Self.remove("cards/todo/gone.md", "g1")]),
            ], objects: ["a3": Self.card("Card A", labels: "[bug]"), "g1": Self.card("Gone")])
            let a = history.cards[0]
            #expect(places(a) == ["done", "archive", "todo"])
            #expect(a.changes.map(\.kind) == ["created", "archived", "unarchived"])
            #expect(a.title == "Card A")
            #expect(a.labels == ["bug"])
            #expect(places(history.cards[1]) == ["todo", "deleted"])
            #expect(history.cards[1].title == "Gone")
        }

        @Test func aCardRenamedInACommitKeepsItsHistory() {
            let history = histories([
                Self.commit("c1", 100, [Self.add("cards/todo/fix-login.md", "f1")]),
                // Renamed by hand with its title changed: the only file removed and the only one added.
                Self.commit("c2", 200, [Self.remove("cards/todo/fix-login.md", "f1"), Self.add("cards/doing/login-bug.md", "f2")]),
            ])
            #expect(history.cards.count == 1)
            #expect(history.cards[0].slug == "login-bug")
            #expect(history.cards[0].previousSlugs == ["fix-login"])
            #expect(places(history.cards[0]) == ["todo", "doing"])
        }

        @Test func twoCardsAddedUnderOneSlugOnTwoClonesStaySeparateAfterTheMergeRenamesOne() {
            let history = histories([
                Self.commit("base", 100, [Self.add("board.md", "board1")]),
                Self.commit("ben", 200, [Self.add("cards/todo/write-docs.md", "ben1")]),
                Self.commit("ana", 210, [Self.add("cards/todo/write-docs.md", "ana1")]),
                Self.commit("merge", 300, parents: 2, [Change(path: "cards/todo/write-docs-tp3rxp.md", before: [nil, nil], after: "ben1")]),
                // Later changes follow their own card by its versions.
                Self.commit("move", 400, [Self.remove("cards/todo/write-docs-tp3rxp.md", "ben1"), Self.add("cards/done/write-docs-tp3rxp.md", "ben2")]),
                Self.commit("edit", 500, [Self.modify("cards/todo/write-docs.md", "ana1", "ana2")]),
            ])
            #expect(history.cards.map(\.slug) == ["write-docs-tp3rxp", "write-docs"])
            #expect(places(history.cards[0]) == ["todo", "done"])
            #expect(places(history.cards[1]) == ["todo"])
            #expect(history.cards[0].changes.first?.commit == "ben")
        }

        @Test func changesFromTwoClonesCountOnceInTimeOrder() {
            // Ana moved the card at 300, Ben edited it where it was at 250 and moved it on at 350; the merge only
            // merged the versions.
            let history = histories([
                Self.commit("add", 100, [Self.add("cards/todo/a.md", "a1")]),
                Self.commit("ben-edit", 250, [Self.modify("cards/todo/a.md", "a1", "b1")]),
                Self.commit("ana-move", 300, [Self.remove("cards/todo/a.md", "a1"), Self.add("cards/doing/a.md", "a2")]),
                Self.commit("merge", 320, parents: 2, [Change(path: "cards/doing/a.md", before: ["a2", nil], after: "m1")]),
                Self.commit("ben-move", 350, [Self.remove("cards/doing/a.md", "m1"), Self.add("cards/done/a.md", "m2")]),
            ])
            #expect(history.cards.count == 1)
            #expect(places(history.cards[0]) == ["todo", "doing", "done"])
            #expect(history.cards[0].changes.map(\.commit) == ["add", "ana-move", "ben-move"])
        }

        @Test func aCardChangedAfterADeleteOnAnotherCloneIsBack() {
            let history = histories([
                Self.commit("add", 100, [Self.add("cards/todo/a.md", "a1")]),
                Self.commit("delete", 200, [Self.remove("cards/todo/a.md", "a1")]),
                Self.commit("edit", 300, [Self.modify("cards/todo/a.md", "a1", "a2")]),
            ])
            #expect(places(history.cards[0]) == ["todo", "deleted", "todo"])
            #expect(history.cards[0].changes.last?.kind == "restored")
        }

        @Test func followsAColumnRenamedInBoardFile() {
            let history = histories([
                Self.commit("c1", 100, [Self.add("board.md", "v1"), Self.add("cards/doing/a.md", "a1")]),
                Self.commit("c2", 200, [Self.modify("board.md", "v1", "v2"),
                                        Self.remove("cards/doing/a.md", "a1"), Self.add("cards/in-progress/a.md", "a1")]),
                Self.commit("c3", 300, [Self.remove("cards/in-progress/a.md", "a1"), Self.add("cards/done/a.md", "a2")]),
            ], objects: [
                "v1": Self.board([("todo", "To Do"), ("doing", "Doing"), ("done", "Done")]),
                "v2": Self.board([("todo", "To Do"), ("in-progress", "In Progress"), ("done", "Done")]),
            ])
            #expect(history.columnRenames == ["doing": "in-progress"])
            #expect(places(history.cards[0]) == ["in-progress", "done"])
        }

        @Test(arguments: [
            // Old columns, new columns, expected pairs.
            ([("a", "A"), ("b", "B")], [("a", "A"), ("c", "B")], ["b→c"]),
            ([("a", "A"), ("b", "B")], [("a", "A"), ("c", "C")], ["b→c"]),
            ([("a", "A"), ("b", "B")], [("a", "A")], []),
            ([("a", "A")], [("a", "A"), ("b", "B")], []),
            ([("a", "A"), ("b", "B")], [("x", "B"), ("y", "Z")], ["b→x"]),
        ] as [([(String, String)], [(String, String)], [String])])
        func pairsRenamedColumns(old: [(String, String)], new: [(String, String)], expected: [String]) {
            let pairs = BoardHistory.renamedColumns(from: old.map { Column(id: $0.0, name: $0.1) }, to: new.map { Column(id: $0.0, name: $0.1) })
            #expect(pairs.map { "\($0.0)→\($0.1)" } == expected)
        }
    }
}
