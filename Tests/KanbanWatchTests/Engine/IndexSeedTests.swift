#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanWatch

/// The watcher starts from the board's index: a card file whose stat data are its entry's is taken from the
/// index, not read, and then behaves exactly as one read.
@Suite struct IndexSeedTests {
    /// Builds the board's index once every card file is old enough to be trusted, and returns what it holds.
    func seed(_ store: BoardStore, count: Int) throws -> CardFileReader.IndexSeed {
        let deadline = ContinuousClock.now + generousTimeout
        while true {
            try store.rebuildIndex()
            let (entries, builtAt) = store.trustedIndexEntries()
            if entries.count == count { return CardFileReader.IndexSeed(entries: entries, builtAt: builtAt) }
            try #require(ContinuousClock.now < deadline, "the index never trusted all \(count) cards")
            usleep(20_000)
        }
    }

    func engine(_ board: WatchedBoard, seed: CardFileReader.IndexSeed?) -> WatchEngine {
        var engine = WatchEngine(root: board.root, options: WatchOptions(settle: .milliseconds(50), maximumDelay: .seconds(1)))
        _ = engine.indexBoard(reportingState: false, seed: seed, prepareColumn: { _ in })
        return engine
    }

    func run(_ engine: inout WatchEngine, _ paths: [String]) -> WatchEngine.Round {
        var work = PendingWork()
        work.paths = Set(paths)
        return engine.run(work, isQuiet: true, now: .now, isBeingWritten: { _ in false }, prepareColumn: { _ in })
    }

    @Test func aCardWhoseStatDataMatchIsTakenFromTheIndex() throws {
        let board = try WatchedBoard()
        var seed = try seed(try board.indexedStore(), count: 4)
        // A forged entry: a card that shows it came from the index, not from its file.
        seed.entries["cards/todo/fix-login.md"]?.card.title = "FROM THE INDEX"
        seed.entries["cards/todo/write-docs.md"]?.card.title = "FROM THE INDEX"
        // A file changed since the index was built is read.
        try board.write(WatchedBoard.cardText(title: "Changed", column: "todo"), to: "cards/todo/write-docs.md")
        let engine = engine(board, seed: seed)
        #expect(engine.index.count == 4)
        #expect(engine.index.entry(at: "cards/todo/fix-login.md")?.lastCard?.card.title == "FROM THE INDEX")
        #expect(engine.index.entry(at: "cards/todo/fix-login.md")?.contentHash == nil)
        #expect(engine.index.entry(at: "cards/todo/write-docs.md")?.lastCard?.card.title == "Changed")
        #expect(engine.index.entry(at: "cards/doing/ship-it.md")?.lastCard?.card.title == "ship-it")
    }

    @Test func aCardTakenFromTheIndexReportsChangesAsACardReadDoes() throws {
        let board = try WatchedBoard()
        let seed = try seed(try board.indexedStore(), count: 4)
        var seeded = engine(board, seed: seed)
        var read = engine(board, seed: nil)
        for path in ["cards/todo/fix-login.md", "cards/todo/write-docs.md", "cards/doing/ship-it.md", "cards/done/old-news.md"] {
            #expect(seeded.index.entry(at: path)?.lastCard == read.index.entry(at: path)?.lastCard, "\(path)")
        }
        // A touch is no change; a body edit changes the body only; a new title the title only.
        let touched = board.root + "/cards/todo/fix-login.md"
        var times = [timespec(tv_sec: 1_800_000_000, tv_nsec: 0), timespec(tv_sec: 1_800_000_000, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, touched, &times, 0) == 0)
        try board.write(WatchedBoard.cardText(title: "write-docs", column: "todo", body: "Body.\nAnd a line more."), to: "cards/todo/write-docs.md")
        try board.write(WatchedBoard.cardText(title: "Ship it now", column: "doing"), to: "cards/doing/ship-it.md")
        let paths = ["cards/todo/fix-login.md", "cards/todo/write-docs.md", "cards/doing/ship-it.md"]
        let fromSeed = run(&seeded, paths).events
        let fromRead = run(&read, paths).events
        #expect(Set(fromSeed.summaries) == ["modified write-docs", "modified ship-it"])
        #expect(fromSeed.first { $0.slug == "write-docs" }?.changes == [.body])
        #expect(fromSeed.first { $0.slug == "ship-it" }?.changes == [.title])
        #expect(fromSeed.map(\.changes) == fromRead.map(\.changes))
        #expect(fromSeed.summaries == fromRead.summaries)
        // Once read, the card's bytes are known: a change of formatting alone is reported from then on.
        #expect(seeded.index.entry(at: "cards/todo/fix-login.md")?.contentHash != nil)
        let reordered = WatchedBoard.cardText(title: "fix-login", column: "todo")
            .replacingOccurrences(of: "column: todo\nposition: n", with: "position: n\ncolumn: todo")
        try board.write(reordered, to: "cards/todo/fix-login.md")
        let formatting = run(&seeded, ["cards/todo/fix-login.md"]).events
        #expect(formatting.summaries == ["modified fix-login"])
        #expect(formatting.first?.changes == [.formatting])
    }

    @Test func aWatcherOnABoardWithAnIndexStartsFromIt() throws {
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        _ = try seed(store, count: 4)
        // Forge the index itself: the initial state the watcher reports shows where it came from.
        let file = try #require(store.indexFile)
        let index = try #require(file.read())
        var contents = CardIndexFile.Contents()
        for (directory, section) in index.sections {
            contents.touch(directory)
            for start in section.starts {
                let name = try #require(section.name(at: start))
                let cardFile = directory == "archive" ? CardFile.archived(name: name)
                    : CardFile.active(name: name, column: String(directory.dropFirst("cards/".count)))
                var card = try #require(section.card(at: start, file: cardFile))
                card.title = "FROM THE INDEX"
                contents.append(EntryLayout.encode(card, name: name, stamp: try #require(section.stamp(at: start)),
                                                   bodyDigest: try #require(section.bodyDigest(at: start))), to: directory)
            }
        }
        file.write(contents, builtAt: index.builtAt)
        let recorder = EventRecorder()
        let watcher = BoardWatchers.make(for: store, mechanism: .polling,
                                         options: WatchOptions(pollInterval: .milliseconds(100), reportsInitialState: true),
                                         onEvent: recorder.record)
        try watcher.start()
        defer { watcher.stop() }
        #expect(recorder.wait { $0.filter { $0.kind == .created }.count == 4 })
        #expect(recorder.events.filter { $0.kind == .created }.allSatisfy { $0.title == "FROM THE INDEX" })
    }
}
