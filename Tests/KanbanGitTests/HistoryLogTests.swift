import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// Reading `git log --raw -z -c` output.
    @Suite struct HistoryLogTests {
        /// Recorded from git 2.39: a root commit, an add, and a merge that renamed a card (`AA` against both parents).
        static let recorded: [UInt8] = {
            let zero = String(repeating: "0", count: 40)
            let board = "5970231" + String(repeating: "a", count: 33)
            let card = "4d353b7" + String(repeating: "b", count: 33)
            var text = "\u{1}49457a7 1795685675 \0"
            text += "\n:000000 100644 \(zero) \(board) A\0board.md\0"
            text += "\u{1}b846a9f 1795685677 49457a7\0"
            text += "\n:000000 100644 \(zero) \(card) A\0cards/todo/write-docs.md\0"
            text += "\u{1}15a23b8 1795685678 b846a9f 5fcd383\0\0"
            text += "::000000 000000 100644 \(zero) \(zero) \(card) AA\0cards/todo/write-docs-tp3rxp.md\0"
            return Array(text.utf8)
        }()

        @Test func readsCommitsChangesAndMerges() throws {
            let log = HistoryLog(parsing: Self.recorded)
            #expect(log.commits.map(\.hash) == ["49457a7", "b846a9f", "15a23b8"])
            #expect(log.commits.map(\.time) == [1_795_685_675, 1_795_685_677, 1_795_685_678])
            #expect(log.commits.map(\.parentCount) == [0, 1, 2])
            #expect(log.commits[0].changes.map(\.path) == ["board.md"])
            let merged = try #require(log.commits[2].changes.first)
            #expect(merged.path == "cards/todo/write-docs-tp3rxp.md")
            #expect(merged.before == [nil, nil])
            #expect(merged.isAdded)
            #expect(log.commits[1].changes.first?.after?.hasPrefix("4d353b7") == true)
        }

        @Test func skipsWhatItCannotRead() {
            let log = HistoryLog(parsing: Array("\u{1}abc notatime\0\n:bad\0path\0\u{1}def 5\0".utf8))
            #expect(log.commits.map(\.hash) == ["def"])
            #expect(log.commits[0].changes.isEmpty)
        }
    }
}
