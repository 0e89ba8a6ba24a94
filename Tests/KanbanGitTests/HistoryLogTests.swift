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

        @Test func readsAuthorsAndTheAgentTrailer() throws {
            var text = "\u{1}aaa 10 \u{2}Ana \u{C3}\u{B6}\u{2}ana@example.com\u{2}\0"
            text += "\u{1}bbb 20 aaa\u{2}Bot\u{2}\u{2}bot-1,bot-2\n\0"
            // Odd names: spaces, a colon, empty email and no agent; and a header from an older format (no fields).
            text += "\u{1}ccc 30 bbb\u{2} Odd: Name \u{2}\u{2}\0"
            text += "\u{1}ddd 40 ccc\0"
            let log = HistoryLog(parsing: Array(text.utf8))
            #expect(log.commits.map(\.hash) == ["aaa", "bbb", "ccc", "ddd"])
            #expect(log.commits[0].author == CommitAuthor(name: "Ana \u{C3}\u{B6}", email: "ana@example.com", agent: nil))
            #expect(log.commits[1].author == CommitAuthor(name: "Bot", email: "", agent: "bot-1,bot-2"))
            #expect(log.commits[1].parents == ["aaa"])
            #expect(log.commits[2].author == CommitAuthor(name: " Odd: Name ", email: "", agent: nil))
            #expect(log.commits[3].author == CommitAuthor(name: "", email: "", agent: nil))
            #expect(log.commits.map(\.time) == [10, 20, 30, 40])
        }

        @Test func skipsWhatItCannotRead() {
            let log = HistoryLog(parsing: Array("\u{1}abc notatime\0\n:bad\0path\0\u{1}def 5\0".utf8))
            #expect(log.commits.map(\.hash) == ["def"])
            #expect(log.commits[0].changes.isEmpty)
        }
    }
}
