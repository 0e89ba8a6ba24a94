import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore
@testable import KanbanGit

/// The report's history cache never changes what the report sees, with two clones syncing through a remote: after new
/// commits, merges from the other clone, a fast-forward, a reset, a force-push, and a shallow clone made whole, the
/// histories read through the cache are those read in full. (The cache file's own tests are GitSyncProviderReportTests.)
@Suite struct HistoryCacheSyncTests {
    /// Makes `count` random changes on `store` (cards added, some with a title another card has; moved; archived;
    /// deleted; a column renamed now and then), each committed.
    private func changeAtRandom(_ session: BoardSession, _ random: inout SeededGenerator, count: Int) throws {
        let titles = ["Fix login", "Write docs", "Ship it", "Café menu", "Fix login"]
        for _ in 0..<count {
            let cards = try session.store.load().cards
            let choice = random.next() % 10
            _ = try session.change { store -> ((), [BoardChange]) in
                if cards.isEmpty || choice < 4 {
                    return ((), [try store.createCard(title: titles[Int(random.next() % UInt64(titles.count))], in: "todo")])
                }
                let card = cards[Int(random.next() % UInt64(cards.count))]
                switch choice {
                case 4...6:
                    let columns = ["todo", "doing", "done"].filter { $0 != card.column }
                    return ((), [try store.moveCard(card.path, to: columns[Int(random.next() % 2)])])
                case 7: return ((), [try store.archiveCard(card.path)])
                case 8: return ((), [try store.deleteCard(card.path)])
                default: return ((), [try store.renameColumn("doing", to: "Doing \(random.next() % 100)")])
                }
            }
        }
    }

    /// The same provider, reading the whole history every time.
    static func withoutCache(_ provider: GitSyncProvider) -> GitSyncProvider {
        var configuration = provider.configuration
        configuration.usesHistoryCache = false
        return GitSyncProvider(store: provider.store, configuration: configuration)
    }

    /// Expects the histories through the cache (twice: filling it, then from it) to be those read without it.
    private func expectSameHistories(_ provider: GitSyncProvider, _ step: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let full = try Self.withoutCache(provider).cardHistories()
        let through = try provider.cardHistories()
        if through != full {
            for (a, b) in zip(through, full) where a != b { Issue.record("\(step):\n\(a)\n\(b)"); break }
            if through.count != full.count { Issue.record("\(step): \(through.count) cards, not \(full.count)") }
        }
        #expect(through == full, "\(step): through the cache", sourceLocation: sourceLocation)
        #expect(try provider.cardHistories() == full, "\(step): from the cache", sourceLocation: sourceLocation)
    }

    @Test(arguments: [1, 38, 2026] as [UInt64]) func theCacheReadsWhatAWholeReadReads(seed: UInt64) throws {
        try withGitSandbox { sandbox in
            let (ana, ben) = try sandbox.makeSharedBoard()
            let anaSession = BoardSession(store: ana, sync: sandbox.provider(ana), commitPolicy: .always)
            let benSession = BoardSession(store: ben, sync: sandbox.provider(ben), commitPolicy: .always)
            var random = SeededGenerator(seed: seed)
            for round in 0..<4 {
                try changeAtRandom(anaSession, &random, count: 4)
                try expectSameHistories(sandbox.provider(ana), "round \(round), ana's new commits")
                try changeAtRandom(benSession, &random, count: 4)
                _ = try anaSession.sync()
                _ = try benSession.sync()
                try expectSameHistories(sandbox.provider(ben), "round \(round), ben merged ana's")
                _ = try anaSession.sync()
                try expectSameHistories(sandbox.provider(ana), "round \(round), ana fast-forwarded")
            }
            // A history rewritten under the cache: reset back, then new commits on another line.
            let directory = ana.directory
            try sandbox.git(["reset", "--quiet", "--hard", "HEAD~3"], in: directory)
            try expectSameHistories(sandbox.provider(ana), "after a reset")
            try changeAtRandom(anaSession, &random, count: 3)
            try expectSameHistories(sandbox.provider(ana), "new commits after the reset")
            // A force-push brought in by a fetch and a hard reset to it, as a person would.
            try sandbox.git(["push", "--quiet", "--force", "origin", "HEAD:main"], in: directory)
            try sandbox.git(["fetch", "--quiet"], in: ben.directory)
            try sandbox.git(["reset", "--quiet", "--hard", "origin/main"], in: ben.directory)
            try expectSameHistories(sandbox.provider(ben), "after a force-push")
        }
    }

    @Test func aShallowCloneMadeWholeIsReadAgain() throws {
        try withGitSandbox { sandbox in
            let (ana, _) = try sandbox.makeSharedBoard()
            let session = BoardSession(store: ana, sync: sandbox.provider(ana), commitPolicy: .always)
            var random = SeededGenerator(seed: 7)
            try changeAtRandom(session, &random, count: 12)
            _ = try session.sync()
            let shallow = sandbox.root + "/shallow"
            try sandbox.git(["clone", "--quiet", "--depth", "3", "file://" + sandbox.root + "/remote.git", shallow], in: sandbox.root)
            let store = try sandbox.store(in: shallow)
            let cut = try sandbox.provider(store).cardHistories()
            try sandbox.git(["fetch", "--quiet", "--unshallow"], in: shallow)
            // HEAD has not moved, but the history behind it has grown: the cache of the cut is not used.
            let whole = try sandbox.provider(store).cardHistories()
            #expect(whole == (try Self.withoutCache(sandbox.provider(store)).cardHistories()))
            #expect(whole != cut)
            #expect(whole.count == (try Self.withoutCache(sandbox.provider(ana)).cardHistories()).count)
        }
    }
}
