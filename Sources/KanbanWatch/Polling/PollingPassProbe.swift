import KanbanCore

/// One polling pass on its own, for the benchmark: the board indexed once, then passes that compare every card
/// file's stamp with the index, exactly as ``PollingWatcher`` does every interval.
package struct PollingPassProbe: Sendable {
    private let scanner: PollingScanner
    private let index: BoardIndex

    /// Indexes `store`'s board (reading and parsing every card, as a watcher does when it starts).
    package init(store: BoardStore) {
        var engine = WatchEngine(root: store.directory, options: WatchOptions())
        _ = engine.indexBoard(reportingState: false, prepareColumn: { _ in })
        index = engine.index
        scanner = PollingScanner(root: store.directory)
    }

    /// Card files in the index.
    package var cardCount: Int { index.count }

    /// Runs one pass; returns how many places it found to look at again (0 on a board nobody touched, once
    /// its files are older than the racy window).
    package func pass() -> Int {
        let work = scanner.pass(index)
        return work.paths.count + work.directories.count + (work.listsColumns ? 1 : 0) + (work.listsRoot ? 1 : 0)
    }
}
