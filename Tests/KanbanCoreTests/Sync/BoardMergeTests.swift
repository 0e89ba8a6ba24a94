import Foundation
import Testing
@testable import KanbanCore

extension SyncTests {
    /// ``BoardMerge``: the board's three versions merged card by card, as `kanban sync` merges them.
    @Suite struct BoardMergeTests {
        private static func card(_ title: String, column: String, created: String, modified: String? = nil, body: String = "") -> [UInt8] {
            Array("""
                ---
                title: \(title)
                column: \(column)
                position: n
                created: \(created)
                modified: \(modified ?? created)
                labels: []
                ---

                \(body)
                """.utf8)
        }

        private func merge(base: BoardMerge.Files, ours: BoardMerge.Files, theirs: BoardMerge.Files,
                           deletedAt: Date? = nil) throws -> BoardMerge.Result {
            BoardMerge { _, _ in deletedAt }.merge(base: base, ours: ours, theirs: theirs)
        }

        @Test func findsAMovedCardByItsSlugAndTakesBothSidesChanges() throws {
            let base = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", body: "one\ntwo\n")
            let moved = Self.card("Task", column: "done", created: "2026-01-01T09:00:00Z", modified: "2026-01-02T09:00:00Z", body: "one\ntwo\n")
            let edited = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", modified: "2026-01-01T10:00:00Z", body: "one\ntwo\nthree\n")
            let result = try merge(base: ["cards/todo/task.md": base], ours: ["cards/done/task.md": moved], theirs: ["cards/todo/task.md": edited])
            #expect(Array(result.files.keys) == ["cards/done/task.md"])
            let text = String(decoding: try #require(result.files["cards/done/task.md"]), as: UTF8.self)
            #expect(text.contains("column: done") && text.hasSuffix("one\ntwo\nthree\n"), "\(text)")
            #expect(result.resolutions.isEmpty)
        }

        @Test(arguments: [false, true])
        func keepsACardDeletedOnOneSideOnlyWhenChangedAfterTheDelete(changedAfter: Bool) throws {
            let base = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z")
            let changed = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", modified: "2026-01-05T10:00:00Z", body: "more\n")
            let delete = ISO8601.date(from: changedAfter ? "2026-01-05T09:59:59Z" : "2026-01-05T10:00:00Z")
            let result = try merge(base: ["cards/todo/task.md": base], ours: [:], theirs: ["cards/todo/task.md": changed], deletedAt: delete)
            #expect((result.files["cards/todo/task.md"] != nil) == changedAfter)
            #expect(result.resolutions.map(\.kind) == [changedAfter ? .keptAfterDelete : .deleted])
        }

        /// One side renamed a card that gave its slug up to another card; the other, not having seen that, changed
        /// it under its old slug. The change goes to the renamed card, on either side, and never to the card that
        /// kept the slug.
        @Test(arguments: [false, true])
        func aCardChangedUnderTheSlugItGaveUpMergesIntoItsRename(renamedOnTheirs: Bool) throws {
            let created = "2026-01-01T09:00:05Z"
            let first = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", body: "First.\n")
            let second = Self.card("Task", column: "done", created: created, body: "Second.\n")
            let renamed = "cards/review/" + BoardMerge.newSlug(for: "task", card: second) { _ in false } + ".md"
            let moved = Self.card("Task", column: "review", created: created, modified: "2026-01-01T09:00:20Z", body: "Second.\n")
            let edited = Self.card("Task", column: "done", created: created, modified: "2026-01-01T09:00:30Z", body: "Second.\nMore.\n")
            let renamer: BoardMerge.Files = ["cards/todo/task.md": first, renamed: moved]
            let other: BoardMerge.Files = ["cards/done/task.md": edited]
            let result = try merge(base: ["cards/done/task.md": second], ours: renamedOnTheirs ? other : renamer,
                                   theirs: renamedOnTheirs ? renamer : other)
            #expect(result.files.keys.sorted() == [renamed, "cards/todo/task.md"].sorted())
            let text = String(decoding: try #require(result.files[renamed]), as: UTF8.self)
            #expect(text.contains("column: review") && text.hasSuffix("Second.\nMore.\n"), "\(text)")
            #expect(result.files["cards/todo/task.md"] == first)
        }

        /// As above, but the other side deleted the card under its old slug: the delete is of the renamed card, judged
        /// by the usual rule with the delete's time asked under the slug the deleting side knew, and the merge says
        /// when the delete was made (its history has no delete under the new slug).
        @Test(arguments: [false, true], [false, true])
        func aCardDeletedUnderTheSlugItGaveUpIsTheRenamedCard(renamedOnTheirs: Bool, changedAfterTheDelete: Bool) throws {
            let created = "2026-01-01T09:00:05Z"
            let first = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", body: "First.\n")
            let second = Self.card("Task", column: "done", created: created, body: "Second.\n")
            let renamed = "cards/done/" + BoardMerge.newSlug(for: "task", card: second) { _ in false } + ".md"
            let edited = Self.card("Task", column: "done", created: created, modified: "2026-01-01T09:00:40Z", body: "Second.\nMore.\n")
            let renamer: BoardMerge.Files = ["cards/todo/task.md": first, renamed: changedAfterTheDelete ? edited : second]
            let deleter: BoardMerge.Side = renamedOnTheirs ? .ours : .theirs
            var asked: [String] = []
            let merger = BoardMerge { side, slug in
                asked.append(slug)
                return side == deleter && slug == "task" ? ISO8601.date(from: "2026-01-01T09:00:30Z") : nil
            }
            let result = merger.merge(base: ["cards/done/task.md": second], ours: renamedOnTheirs ? [:] : renamer,
                                      theirs: renamedOnTheirs ? renamer : [:])
            #expect(result.files.keys.sorted() == (changedAfterTheDelete ? [renamed, "cards/todo/task.md"] : ["cards/todo/task.md"]))
            #expect(result.files["cards/todo/task.md"] == first)
            if changedAfterTheDelete {
                #expect(result.files[renamed] == edited)
                #expect(result.deletions.isEmpty)
            } else {
                #expect(result.deletions == [String(renamed.dropFirst("cards/done/".count).dropLast(3)): ISO8601.date(from: "2026-01-01T09:00:30Z")!])
            }
            // Asked under the old slug, where the deleting side's history has the delete (and under the new one too).
            #expect(asked.contains("task") && asked.allSatisfy { "cards/done/\($0).md" == renamed || $0 == "task" }, "\(asked)")
        }

        /// The side that renamed the card deleted it since, under its new slug; the other changed it under its old
        /// one. The card that took the slug is no version of it, and the delete counts from the later of the two
        /// times the history gives (the merge that renamed the card took it from the old slug earlier).
        @Test(arguments: [false, true], [false, true])
        func aCardRenamedAndDeletedOnOneSideAndChangedUnderItsOldSlugOnTheOther(renamedOnTheirs: Bool, changedAfterTheDelete: Bool) throws {
            let created = "2026-01-01T09:00:05Z"
            let first = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", body: "First.\n")
            let second = Self.card("Task", column: "done", created: created, body: "Second.\n")
            let newSlug = BoardMerge.newSlug(for: "task", card: second) { _ in false }
            let edited = Self.card("Task", column: "done", created: created, modified: changedAfterTheDelete ? "2026-01-01T09:00:50Z" : "2026-01-01T09:00:30Z",
                                   body: "Second.\nMore.\n")
            let renamer: BoardMerge.Files = ["cards/todo/task.md": first]
            let other: BoardMerge.Files = ["cards/done/task.md": edited]
            let deleter: BoardMerge.Side = renamedOnTheirs ? .theirs : .ours
            let merger = BoardMerge { side, slug in
                guard side == deleter else { return nil }
                return ISO8601.date(from: slug == "task" ? "2026-01-01T09:00:10Z" : slug == newSlug ? "2026-01-01T09:00:40Z" : "2026-01-01T00:00:00Z")
            }
            let result = merger.merge(base: ["cards/done/task.md": second], ours: renamedOnTheirs ? other : renamer,
                                      theirs: renamedOnTheirs ? renamer : other)
            let renamed = "cards/done/\(newSlug).md"
            #expect(result.files == (changedAfterTheDelete ? ["cards/todo/task.md": first, renamed: edited] : ["cards/todo/task.md": first]))
        }

        /// One side deleted the card; the other deleted it too and added another card that took its slug (created
        /// later, in another column). The new card is an add that no delete touches (found by kanban-harness converge,
        /// 20 clones x 1,000 ops, seed 2: a card never deleted vanished in a kanban sync).
        @Test(arguments: [false, true])
        func aNewCardUnderADeletedCardsSlugIsNoChangeOfIt(newCardOnTheirs: Bool) throws {
            let old = Self.card("Shared", column: "todo", created: "2026-01-01T09:00:00Z", body: "Old.\n")
            let new = Self.card("Shared", column: "done", created: "2026-01-03T09:00:00Z", body: "New.\n")
            let base: BoardMerge.Files = ["cards/todo/shared.md": old]
            let other: BoardMerge.Files = ["cards/done/shared.md": new]
            // The delete is later than the new card's last change: had the merge taken it for the old card changed,
            // the delete would win.
            let result = try merge(base: base, ours: newCardOnTheirs ? [:] : other, theirs: newCardOnTheirs ? other : [:],
                                   deletedAt: ISO8601.date(from: "2026-01-05T09:00:00Z"))
            #expect(result.files == ["cards/done/shared.md": new])
            #expect(result.resolutions.isEmpty)
        }

        @Test func keepsThreeCardsAddedUnderOneSlugWhenOneSideAlreadyHasTwo() throws {
            // After a plain git merge, the upstream holds two cards with one slug (two columns); ours added a third,
            // on the same path as one of them. Found by kanban-harness converge (50 clones x 100 ops, seed 5).
            let ours = Self.card("Shared", column: "todo", created: "2026-01-01T09:02:00Z", body: "Ours.\n")  // the same second
            let theirsDoing = Self.card("Shared", column: "doing", created: "2026-01-01T09:01:00Z", body: "Doing.\n")
            let theirsTodo = Self.card("Shared", column: "todo", created: "2026-01-01T09:02:00Z", body: "Todo.\n")
            let result = try merge(base: [:], ours: ["cards/todo/shared.md": ours],
                                   theirs: ["cards/doing/shared.md": theirsDoing, "cards/todo/shared.md": theirsTodo])
            // Ours and theirs' todo card were created in the same second: the bytes decide ("Ours." sorts first), and
            // the other takes a slug made from its created time, which every clone renaming it picks alike.
            let suffix = String(UInt64(try #require(ISO8601.date(from: "2026-01-01T09:02:00Z")).timeIntervalSince1970), radix: 36)
            #expect(result.files["cards/doing/shared.md"] == theirsDoing)
            #expect(result.files["cards/todo/shared.md"] == ours)
            #expect(result.files["cards/todo/shared-\(suffix).md"] == theirsTodo)
            #expect(result.files.count == 3)
            #expect(result.resolutions.map(\.kind) == [.renamed])
            // Merged the other way round, the same files.
            let swapped = try merge(base: [:], ours: ["cards/doing/shared.md": theirsDoing, "cards/todo/shared.md": theirsTodo],
                                    theirs: ["cards/todo/shared.md": ours])
            #expect(swapped.files == result.files)
        }

        @Test func aCardAnotherCloneAlreadyRenamedIsMergedIntoThatRenameNotMadeTwice() throws {
            // Found by kanban-harness converge (50 clones x 100 ops, seed 8): one card under two new slugs.
            let first = Self.card("X", column: "todo", created: "2026-01-01T09:00:00Z", body: "First.\n")
            let second = Self.card("X", column: "todo", created: "2026-01-01T09:05:00Z", body: "Second.\n")
            let secondEdited = Self.card("X", column: "todo", created: "2026-01-01T09:05:00Z", modified: "2026-01-01T10:00:00Z",
                                         body: "Second.\nMore.\n")
            let suffix = String(UInt64(try #require(ISO8601.date(from: "2026-01-01T09:05:00Z")).timeIntervalSince1970), radix: 36)
            let renamedPath = "cards/todo/x-\(suffix).md"
            let result = try merge(base: [:], ours: ["cards/todo/x.md": secondEdited],
                                   theirs: ["cards/todo/x.md": first, renamedPath: second])
            #expect(Set(result.files.keys) == ["cards/todo/x.md", renamedPath])
            #expect(result.files["cards/todo/x.md"] == first)
            let merged = String(decoding: try #require(result.files[renamedPath]), as: UTF8.self)
            #expect(merged.contains("Second.\nMore.\n"), "\(merged)")
        }

        @Test(arguments: [false, true])
        func appliesTheDeleteRuleToASlugOnTwoPaths(changedAfter: Bool) throws {
            // The base holds two copies of one card (a plain git merge left them); ours deletes both, theirs edits one.
            let copy = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z")
            let other = Self.card("Task", column: "done", created: "2026-01-01T09:00:00Z")
            let edited = Self.card("Task", column: "todo", created: "2026-01-01T09:00:00Z", modified: "2026-01-05T10:00:00Z", body: "more\n")
            let delete = ISO8601.date(from: changedAfter ? "2026-01-05T09:00:00Z" : "2026-01-05T11:00:00Z")
            let base = ["cards/todo/task.md": copy, "cards/done/task.md": other]
            let result = try merge(base: base, ours: [:], theirs: ["cards/todo/task.md": edited, "cards/done/task.md": other],
                                   deletedAt: delete)
            #expect((result.files["cards/todo/task.md"] != nil) == changedAfter)
            #expect(result.files["cards/done/task.md"] == nil)
        }

        @Test func mergesBoardFileColumnsAddedOnBothSides() throws {
            func board(_ columns: [String]) -> [UInt8] {
                Array(("---\ntitle: Team\ncolumns:\n" + columns.map { "  - id: \($0)\n    name: \($0.capitalized)\n" }.joined() + "---\n").utf8)
            }
            let result = try merge(base: ["board.md": board(["todo", "done"])], ours: ["board.md": board(["todo", "review", "done"])],
                                   theirs: ["board.md": board(["todo", "done", "later"])])
            let text = String(decoding: try #require(result.files["board.md"]), as: UTF8.self)
            for id in ["todo", "review", "done", "later"] { #expect(text.contains("- id: \(id)"), "\(text)") }
        }
    }
}
