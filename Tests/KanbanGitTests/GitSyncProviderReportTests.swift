import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore
@testable import KanbanGit

extension SyncTests {
    /// `GitSyncProvider.cardHistories()` over real repositories.
    @Suite struct GitSyncProviderReportTests {
        /// A card file in `column`.
        static func card(_ title: String, column: String) -> String {
            "---\ntitle: \(title)\ncolumn: \(column)\nlabels: [bug]\n---\n"
        }

        @Test func changesCarryTheirCommitsAuthorsAndAgents() throws {
            try withGitSandbox { sandbox in
                let directory = try sandbox.makeRepository(named: "board")
                let store = try sandbox.makeBoard(in: directory)
                try sandbox.git(["add", "--all"], in: directory)
                try sandbox.git(["commit", "--quiet", "-m", "Start"], in: directory)
                try sandbox.write(Self.card("Login", column: "todo"), to: directory + "/cards/todo/login.md")
                try sandbox.git(["add", "--all"], in: directory)
                try sandbox.git(["-c", "user.name=Ana Ölund", "-c", "user.email=ana@example.com", "commit", "--quiet", "-m", "Add login"],
                                in: directory)
                try sandbox.git(["mv", "cards/todo/login.md", "cards/doing/login.md"], in: directory)
                try sandbox.git(["-c", "user.name=Ben", "-c", "user.email=ben@example.com", "commit", "--quiet", "-m",
                                 "Move login\n\nKanban-Agent: bot-1"], in: directory)
                let histories = try sandbox.provider(store).cardHistories()
                let login = try #require(histories.first { $0.slug == "login" })
                #expect(login.changes.map(\.kind) == ["created", "moved"])
                #expect(login.changes.map(\.author) == [
                    CommitAuthor(name: "Ana Ölund", email: "ana@example.com", agent: nil),
                    CommitAuthor(name: "Ben", email: "ben@example.com", agent: "bot-1"),
                ])
            }
        }
    }
}

extension SyncTests.GitSyncProviderReportTests {
    /// A board's history made step by step with git: cards added, moved, renamed, edited, archived and deleted,
    /// a column renamed, side branches merged.
    final class HistoryScript {
        let sandbox: GitSandbox
        /// The repository's top.
        let top: String
        /// The board directory.
        let board: String
        let store: BoardStore
        var random: SeededGenerator
        /// Each card's path in the board.
        var cards: [String: String] = [:]
        var columns = ["todo", "doing", "done"]
        var counter = 0
        var time = 1_780_000_000

        init(_ sandbox: GitSandbox, prefix: String, seed: UInt64) throws {
            self.sandbox = sandbox
            top = try sandbox.makeRepository(named: "board")
            board = prefix.isEmpty ? top : top + "/" + prefix
            store = try sandbox.makeBoard(in: board)
            random = SeededGenerator(seed: seed)
            try commit("Start")
        }

        func commit(_ message: String) throws {
            time += 60 + Int(random.next() % 600)
            sandbox.set("GIT_AUTHOR_DATE", "@\(time) +0000")
            sandbox.set("GIT_COMMITTER_DATE", "@\(time) +0000")
            try sandbox.git(["add", "--all"], in: top)
            try sandbox.git(["commit", "--quiet", "--allow-empty", "-m", message], in: top)
        }

        func pick() -> String? {
            let onBoard = cards.filter { $0.value.hasPrefix("cards/") }.keys.sorted()
            return onBoard.isEmpty ? nil : onBoard[Int(random.next() % UInt64(onBoard.count))]
        }

        func move(_ slug: String, to path: String) throws {
            guard let old = cards[slug], old != path else { return }
            try FileManager.default.createDirectory(atPath: board + "/" + (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try sandbox.git(["mv", old, path], in: board)
            cards[slug] = nil
            cards[((path as NSString).lastPathComponent as NSString).deletingPathExtension] = path
        }

        func add(column: String? = nil) throws {
            counter += 1
            let slug = "card-\(counter)"
            let column = column ?? columns[Int(random.next() % UInt64(columns.count))]
            try sandbox.write(SyncTests.GitSyncProviderReportTests.card("Card \(counter)", column: column),
                              to: board + "/cards/\(column)/\(slug).md")
            cards[slug] = "cards/\(column)/\(slug).md"
        }

        /// One random step, committed.
        func step() throws {
            switch random.next() % 10 {
            case 0, 1, 2:
                try add()
                try commit("Add")
            case 3, 4:
                guard let slug = pick() else { return try add() }
                let column = columns[Int(random.next() % UInt64(columns.count))]
                try move(slug, to: "cards/\(column)/\(slug).md")
                try commit("Move")
            case 5:
                guard let slug = pick(), let path = cards[slug] else { return }
                try move(slug, to: (path as NSString).deletingLastPathComponent + "/\(slug)-renamed.md")
                try commit("Rename")
            case 6:
                guard let slug = pick() else { return }
                try move(slug, to: "archive/2026-01-01-\(slug).md")
                try commit("Archive")
            case 7:
                guard let slug = pick(), let path = cards[slug] else { return }
                try sandbox.write(SyncTests.GitSyncProviderReportTests.card("Edited \(slug)", column: "x"), to: board + "/" + path)
                try commit("Edit")
            case 8:
                guard let slug = pick(), let path = cards[slug] else { return }
                try sandbox.git(["rm", "--quiet", path], in: board)
                cards[slug] = nil
                try commit("Delete")
            default:
                try merge()
            }
        }

        /// A side branch from a few commits back that adds cards, merged without fast-forward.
        func merge() throws {
            let count = Int(try sandbox.git(["rev-list", "--count", "HEAD"], in: top)) ?? 0
            guard count > 3 else { return }
            try sandbox.git(["checkout", "--quiet", "-b", "side", "HEAD~2"], in: top)
            let saved = cards
            try add(column: "todo")
            let first = "card-\(counter)"
            try commit("Add on a side")
            try add(column: "todo")
            let second = "card-\(counter)"
            try commit("Add on a side")
            try sandbox.git(["checkout", "--quiet", "main"], in: top)
            cards = saved
            try sandbox.git(["merge", "--quiet", "--no-ff", "-m", "Merge side", "side"], in: top)
            try sandbox.git(["branch", "--quiet", "-D", "side"], in: top)
            cards[first] = "cards/todo/\(first).md"
            cards[second] = "cards/todo/\(second).md"
        }

        /// Renames the column `doing` (id and directory) in `board.md`.
        func renameColumn() throws {
            let text = try sandbox.read(board + "/board.md").replacingOccurrences(of: "id: doing", with: "id: doing-now")
            try sandbox.write(text, to: board + "/board.md")
            if FileManager.default.fileExists(atPath: board + "/cards/doing") {
                try sandbox.git(["mv", "cards/doing", "cards/doing-now"], in: board)
            }
            for (slug, path) in cards where path.hasPrefix("cards/doing/") { cards[slug] = "cards/doing-now/\(slug).md" }
            columns = ["todo", "doing-now", "done"]
            try commit("Rename a column")
        }
    }

    /// The cache file of `store`'s board.
    static func cachePath(_ sandbox: GitSandbox, _ store: BoardStore, top: String) throws -> String {
        let gitDirectory = try sandbox.git(["rev-parse", "--absolute-git-dir"], in: top)
        return gitDirectory + "/kanban-index/" + HistoryCache.fileName(boardPath: store.directory)
    }

    /// Checks that the histories read through the cache (made or brought up to date, then taken as it is) are those
    /// read without it, and that the cache is then at HEAD.
    static func expectSameAsWithoutCache(_ sandbox: GitSandbox, _ store: BoardStore, top: String,
                                         sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var off = sandbox.configuration()
        off.usesHistoryCache = false
        let expected = try GitSyncProvider(store: store, configuration: off).cardHistories()
        let cached = try sandbox.provider(store).cardHistories()
        #expect(cached == expected, sourceLocation: sourceLocation)
        let again = try sandbox.provider(store).cardHistories()
        #expect(again == expected, sourceLocation: sourceLocation)
        let cache = try #require(HistoryCache.read(from: try cachePath(sandbox, store, top: top), boardPath: store.directory),
                                 sourceLocation: sourceLocation)
        // Up to date, or a few commits behind (a run that read only a few leaves the cache as it was).
        let head = try sandbox.git(["rev-parse", "HEAD"], in: store.directory)
        #expect(try cache.key.tip == head || sandbox.run(["merge-base", "--is-ancestor", cache.key.tip, head], in: store.directory).status == 0,
                "the cache is of another line of history", sourceLocation: sourceLocation)
    }

    @Test(arguments: [("", UInt64(1)), ("team", UInt64(2)), ("", UInt64(3))])
    func theCacheGivesWhatAWholeReadGives(prefix: String, seed: UInt64) throws {
        try withGitSandbox { sandbox in
            let script = try HistoryScript(sandbox, prefix: prefix, seed: seed)
            for _ in 0..<12 { try script.step() }
            try script.merge()
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            // New commits one after another, then a merge of commits beside the tip, then a column renamed.
            for _ in 0..<3 { try script.add(); try script.commit("Add") }
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            try script.merge()
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            try script.renameColumn()
            for _ in 0..<10 { try script.step() }
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            // A rewritten tip (a rebase, an amend): the cache's tip is no longer HEAD's ancestor.
            let before = try sandbox.git(["rev-parse", "HEAD"], in: script.top)
            try sandbox.git(["commit", "--quiet", "--amend", "-m", "Amended"], in: script.top)
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            // A reset to an older commit (a force-push fetched), then new work on it.
            try sandbox.git(["reset", "--quiet", "--hard", "HEAD~4"], in: script.top)
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            try sandbox.git(["reset", "--quiet", "--hard", before], in: script.top)
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            for _ in 0..<6 { try script.step() }
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
        }
    }

    @Test func aShallowCloneAndItsUnshallowingAreReadAgain() throws {
        try withGitSandbox { sandbox in
            let script = try HistoryScript(sandbox, prefix: "", seed: 7)
            for _ in 0..<20 { try script.step() }
            let clone = sandbox.root + "/shallow"
            try sandbox.git(["clone", "--quiet", "--depth", "4", "file://" + script.top, clone], in: sandbox.root)
            let store = try sandbox.store(in: clone)
            try Self.expectSameAsWithoutCache(sandbox, store, top: clone)
            let shallow = try sandbox.provider(store).cardHistories()
            try sandbox.git(["fetch", "--quiet", "--unshallow"], in: clone)
            // HEAD has not moved, but the history behind it has: a cache made while shallow must not answer.
            let whole = try sandbox.provider(store).cardHistories()
            #expect(whole != shallow)
            try Self.expectSameAsWithoutCache(sandbox, store, top: clone)
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            #expect(whole == (try sandbox.provider(script.store).cardHistories()))
        }
    }

    @Test func aBrokenCacheIsNeverTrusted() throws {
        try withGitSandbox { sandbox in
            let script = try HistoryScript(sandbox, prefix: "", seed: 11)
            for _ in 0..<10 { try script.step() }
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            let path = try Self.cachePath(sandbox, script.store, top: script.top)
            let whole = try FileSystem.readFile(path)
            // The cache is what a report reads when HEAD has not moved: one changed (with a good checksum) is believed.
            var changed = try #require(HistoryCache(decoding: whole))
            changed.cardVersions = changed.cardVersions.mapValues { $0.map { CardVersionSummary(title: "Changed", labels: $0.labels, column: $0.column) } }
            try FileSystem.writeAtomically(changed.encoded(), to: path)
            #expect(try sandbox.provider(script.store).cardHistories().allSatisfy { $0.title == "Changed" })
            // Truncated (a write killed half-way would leave its temporary file, but a torn copy is no better) or with
            // a byte flipped: read again from git, and written again whole.
            var random = SeededGenerator(seed: 5)
            for _ in 0..<12 {
                var bytes = whole
                if random.next() % 2 == 0 {
                    bytes.removeLast(1 + Int(random.next() % UInt64(bytes.count - 1)))
                } else {
                    bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(1 << (random.next() % 8))
                }
                try FileSystem.writeAtomically(changed.encoded(), to: path)
                try FileSystem.writeAtomically(bytes, to: path)
                try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
                #expect(try FileSystem.readFile(path) == whole)
            }
            // A leftover temporary file of a killed writer is not read, and the next write removes it.
            let leftover = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".999999.1.tmp"
            try FileSystem.writeAtomically(Array(whole.prefix(100)), to: leftover)
            try FileSystem.remove(path)
            try Self.expectSameAsWithoutCache(sandbox, script.store, top: script.top)
            #expect(!sandbox.exists(leftover))
        }
    }
}
