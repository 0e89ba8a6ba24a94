import Foundation
import Testing
@testable import KanbanCore

extension ReportTests {
    /// The history cache's bytes: read back whole, never trusted torn or changed.
    @Suite struct HistoryCacheTests {
        static let cache: HistoryCache = {
            let author = CommitAuthor(name: "Ana", email: "ana@example.com", agent: "bot-1")
            let log = HistoryLog(commits: [
                HistoryLog.Commit(hash: "c1", time: 100, parentCount: 0, author: author, changes: [
                    .init(path: "board.md", before: [nil], after: "b1"), .init(path: "cards/todo/a.md", before: [nil], after: "a1"),
                ]),
                HistoryLog.Commit(hash: "c2", time: 200, parentCount: 2, author: CommitAuthor(name: "Ben", email: ""), changes: [
                    .init(path: "cards/todo/a-x.md", before: [nil, "a1"], after: "a2"), .init(path: "cards/todo/a.md", before: ["a1", nil], after: nil),
                ]),
            ])
            return HistoryCache(key: .init(boardPath: "/tmp/board", tip: "c2", shallow: ""), log: log,
                                boardColumns: ["b1": [Column(id: "todo", name: "To Do")]],
                                cardVersions: ["a2": CardVersionSummary(title: nil, labels: ["bug"], column: "todo"), "zz": CardVersionSummary?.none])
        }()

        @Test func readsBackWhatItWrote() throws {
            let decoded = try #require(HistoryCache(decoding: Self.cache.encoded()))
            #expect(decoded == Self.cache)
            #expect(decoded.log.commits[0].author.agent == "bot-1")
        }

        @Test func isNotTrustedTruncatedAtAnyLength() {
            let bytes = Self.cache.encoded()
            for length in 0..<bytes.count {
                #expect(HistoryCache(decoding: Array(bytes.prefix(length))) == nil, "trusted at \(length) of \(bytes.count) bytes")
            }
        }

        @Test func isNotTrustedWithAnyByteChanged() {
            let bytes = Self.cache.encoded()
            for offset in bytes.indices {
                for bit in [0, 7] {
                    var changed = bytes
                    changed[offset] ^= 1 << bit
                    #expect(HistoryCache(decoding: changed) == nil, "trusted with byte \(offset) changed")
                }
            }
        }

        @Test func isNotTrustedForAnotherBoardOrVersion() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-history-cache-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/kanban-index/" + HistoryCache.fileName(boardPath: "/tmp/board")
            Self.cache.write(to: path)
            #expect(HistoryCache.read(from: path, boardPath: "/tmp/board") == Self.cache)
            #expect(HistoryCache.read(from: path, boardPath: "/tmp/other") == nil)
            var bytes = try FileSystem.readFile(path)
            bytes[8] &+= 1  // the version
            #expect(HistoryCache(decoding: bytes) == nil)
            // Nothing is left beside it but the file.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/kanban-index") == [(path as NSString).lastPathComponent])
        }
    }
}
