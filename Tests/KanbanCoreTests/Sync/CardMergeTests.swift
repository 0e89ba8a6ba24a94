import Foundation
import Testing
@testable import KanbanCore

extension SyncTests {
    /// Merging two versions of a card against their common ancestor, as `kanban merge-driver` does.
    @Suite struct CardMergeTests {
        private let columns = ["todo", "doing", "done"]

        private func card(column: String = "todo", position: String = "a1", modified: String = "2026-01-05T10:00:00Z",
                          labels: String = "[bug]", extra: String = "", body: String = "Line one\nLine two\nLine three\n") -> [UInt8] {
            Array("""
                ---
                title: Fix login bug
                column: \(column)
                position: \(position)
                created: 2026-01-01T09:00:00Z
                modified: \(modified)
                labels: \(labels)
                \(extra)---

                \(body)
                """.utf8)
        }

        private func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) throws -> (text: String, keepsText: Bool) {
            let outcome = CardMerge.merge(base: base, ours: ours, theirs: theirs, columnOrder: columns)
            return (String(decoding: outcome.bytes, as: UTF8.self), outcome.keepsText)
        }

        private func value(_ key: String, in text: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }

        @Test func takesEachSidesChangeToDifferentKeys() throws {
            let base = card()
            let ours = card(extra: "due: 2026-02-01\n")
            let theirs = card(column: "done", position: "a5", modified: "2026-01-06T10:00:00Z")
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(!result.keepsText)
            #expect(value("column", in: result.text) == "done")
            #expect(value("position", in: result.text) == "a5")
            #expect(value("due", in: result.text) == "2026-02-01")
            #expect(value("modified", in: result.text) == "2026-01-06T10:00:00Z")
        }

        @Test(arguments: [true, false])
        func letsTheLaterModifiedWinWhenBothChangedAKey(oursIsLater: Bool) throws {
            let base = card(extra: "assignee: sam\n")
            let early = card(modified: "2026-01-06T10:00:00Z", extra: "assignee: ana\n")
            let late = card(modified: "2026-01-07T10:00:00Z", extra: "assignee: ben\n")
            let result = try merge(base: base, ours: oursIsLater ? late : early, theirs: oursIsLater ? early : late)
            #expect(!result.keepsText)
            #expect(value("assignee", in: result.text) == "ben")
            #expect(value("modified", in: result.text) == "2026-01-07T10:00:00Z")
        }

        @Test func mergesLabelsAsSets() throws {
            let base = card(labels: "[bug, ui, docs]")
            let ours = card(modified: "2026-01-06T10:00:00Z", labels: "[bug, docs, urgent]")  // removed ui, added urgent
            let theirs = card(modified: "2026-01-07T10:00:00Z", labels: "[ui, docs, later]")  // removed bug, added later
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(value("labels", in: result.text) == "[docs, urgent, later]")
        }

        @Test func keepsColumnAndPositionTogether() throws {
            // Ours reordered within To Do; theirs moved the card to Done: the move brings its own position.
            let base = card(position: "a1")
            let ours = card(position: "Zz", modified: "2026-01-09T10:00:00Z")
            let theirs = card(column: "done", position: "a7", modified: "2026-01-06T10:00:00Z")
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(value("column", in: result.text) == "done")
            #expect(value("position", in: result.text) == "a7")
        }

        @Test(arguments: [true, false])
        func takesColumnAndPositionFromOneSideEvenWhenEachChangedOnlyOne(oursMoved: Bool) throws {
            // One side moved the card (column only, its key kept); the other reordered it (position only).
            let base = card(column: "todo", position: "n")
            let moved = card(column: "done", position: "n", modified: "2026-01-06T10:00:00Z")
            let reordered = card(column: "todo", position: "b", modified: "2026-01-07T10:00:00Z")
            let result = try merge(base: base, ours: oursMoved ? moved : reordered, theirs: oursMoved ? reordered : moved)
            #expect(value("column", in: result.text) == "done")
            #expect(value("position", in: result.text) == "n")
        }

        @Test func keepsTheLosersLinesButNoBaseLines() {
            let merged = CardMerge.mergeLines(base: "one\nbase line\nthree\n", ours: "one\nana's line\nthree\n",
                                              theirs: "one\nben's line\nthree\n", oursWins: true)
            #expect(merged.text == "one\nana's line\nthree\n")
            #expect(merged.kept == "ben's line\n")
        }

        @Test func breaksATieByColumnOrderTheSameWayFromEitherSide() throws {
            let base = card()
            let doing = card(column: "doing", position: "a3")
            let done = card(column: "done", position: "a9")
            let one = try merge(base: base, ours: doing, theirs: done)
            let other = try merge(base: base, ours: done, theirs: doing)
            #expect(value("column", in: one.text) == "done")
            #expect(value("column", in: other.text) == "done")
            #expect(value("position", in: one.text) == "a9")
            #expect(value("position", in: other.text) == "a9")
        }

        @Test func mergesBodiesChangedInDifferentPlaces() throws {
            let base = card()
            let ours = card(body: "Line one, edited\nLine two\nLine three\n")
            let theirs = card(body: "Line one\nLine two\nLine three, edited\n")
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(!result.keepsText)
            #expect(result.text.hasSuffix("Line one, edited\nLine two\nLine three, edited\n"))
        }

        @Test(arguments: [true, false])
        func keepsTheLosingLinesInASectionWhereBothChangedTheSameLines(benIsLater: Bool) throws {
            let base = card()
            let ana = card(modified: benIsLater ? "2026-01-06T10:00:00Z" : "2026-01-08T10:00:00Z", labels: "[bug, ui]",
                           body: "Line one\nLine two by ana\nLine three\n")
            let ben = card(modified: benIsLater ? "2026-01-07T10:00:00Z" : "2026-01-05T10:00:00Z",
                           body: "Line one\nLine two by ben\nLine three\n")
            // Whichever side merges, the later version's line is in place and the other's is kept in a section.
            for (ours, theirs) in [(ana, ben), (ben, ana)] {
                let result = try merge(base: base, ours: ours, theirs: theirs)
                #expect(result.keepsText)
                #expect(value("labels", in: result.text) == "[bug, ui]")
                #expect(!result.text.contains("<<<<<<<") && !result.text.contains(">>>>>>>"))
                let document = try FrontmatterDocument(bytes: Array(result.text.utf8))
                #expect(document.value(forKey: "title")?.string == "Fix login bug")
                let (winner, loser) = benIsLater ? ("Line two by ben", "Line two by ana") : ("Line two by ana", "Line two by ben")
                let sections = try #require(KeptText.sections(of: .conflict, in: document.body))
                #expect(sections.rest == "Line one\n\(winner)\nLine three\n")
                #expect(sections.texts == ["\(loser)\n"])
            }
        }

        @Test func keepsBothBodiesOfFilesGitCallsBinary() throws {
            let base = card(body: "plain\n")
            let ours = card(modified: "2026-01-07T10:00:00Z", body: "ours\u{0}with a NUL\n")
            let theirs = card(modified: "2026-01-06T10:00:00Z", body: "theirs\u{0}too\n")
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(result.keepsText)
            #expect(result.text.contains("ours\u{0}with a NUL"))
            #expect(result.text.contains("theirs\u{0}too"))
        }

        @Test func mergesFilesWithoutFrontmatterAsText() throws {
            let base = Array("# Notes\n\none\ntwo\nthree\n".utf8)
            let ours = Array("# Notes\n\nONE\ntwo\nthree\n".utf8)
            let theirs = Array("# Notes\n\none\ntwo\nTHREE\n".utf8)
            let result = try merge(base: base, ours: ours, theirs: theirs)
            #expect(!result.keepsText)
            #expect(result.text == "# Notes\n\nONE\ntwo\nTHREE\n")
        }

        @Test func tellsTwoDifferentCardsThatShareANameAndKeepsOneInsideTheOther() throws {
            let ours = card()
            let theirs = Array(String(decoding: card(), as: UTF8.self)
                .replacingOccurrences(of: "created: 2026-01-01T09:00:00Z", with: "created: 2026-01-02T09:00:00Z").utf8)
            #expect(CardMerge.areTwoCards(base: [], ours: ours, theirs: theirs))
            #expect(!CardMerge.areTwoCards(base: [], ours: ours, theirs: ours))
            #expect(!CardMerge.areTwoCards(base: card(body: "x\n"), ours: ours, theirs: theirs))
            let kept = CardMerge.keeping(theirs, in: ours)
            let document = try FrontmatterDocument(bytes: kept)
            #expect(document.value(forKey: "created")?.string == "2026-01-01T09:00:00Z")
            let sections = try #require(KeptText.sections(of: .otherCard, in: document.body))
            #expect(sections.texts == [String(decoding: theirs, as: UTF8.self)])
            #expect(sections.rest == "Line one\nLine two\nLine three\n")
            #expect(KeptText.firstSection(of: .otherCard, in: kept) == 14)
        }

        @Test func prefersTheLaterVersionSymmetrically() {
            let early = CardMerge.Version(modified: Date(timeIntervalSince1970: 10), columnRank: 2, bytes: [1])
            let late = CardMerge.Version(modified: Date(timeIntervalSince1970: 20), columnRank: 0, bytes: [0])
            #expect(CardMerge.prefersOurs(late, early))
            #expect(!CardMerge.prefersOurs(early, late))
            let left = CardMerge.Version(modified: nil, columnRank: 1, bytes: [1])
            let right = CardMerge.Version(modified: nil, columnRank: 1, bytes: [2])
            #expect(CardMerge.prefersOurs(left, right) != CardMerge.prefersOurs(right, left))
        }

        @Test(arguments: [
            ("cards/todo/fix-login.md", "cards/done/fix-login.md", true),
            ("board/cards/todo/fix-login.md", "board/archive/2026-11-26-fix-login.md", true),
            ("archive/2026-11-26-fix-login.md", "cards/todo/fix-login-2.md", true),
            ("cards/todo/fix-login.md", "cards/todo/fix-login-t5ewzk.md", true),
            ("cards/todo/shared-task-1.md", "cards/todo/shared-task-2.md", false),
            ("cards/todo/shared-task-1.md", "cards/todo/shared-task-10.md", false),
            ("cards/todo/fix-login.md", "archive/2026-11-26-fix-logout.md", false),
            ("cards/todo/2026-11-26-fix-login.md", "cards/todo/fix-login.md", false),
            ("archive/2026-1x-26-fix-login.md", "cards/todo/fix-login.md", false),
        ])
        func tellsWhetherTwoPathsCanBeOneCards(first: String, second: String, oneCard: Bool) {
            #expect(CardMerge.mayBeOneCard(path: first, path: second) == oneCard)
            #expect(CardMerge.mayBeOneCard(path: second, path: first) == oneCard)
        }
    }
}
