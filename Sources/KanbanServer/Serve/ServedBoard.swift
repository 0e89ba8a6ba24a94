import KanbanCore
import KanbanWatch
import Synchronization

/// The board `GET /api/board` answers with, kept from the watcher's events instead of read whole for each request
/// (a board of 10,000 cards took 282 ms to read with its bodies; rendering the kept board takes a fraction).
///
/// It is a ``LiveBoard`` (what the TUI and apps keep) and each card's excerpt. The first request reads the board;
/// each watcher event then changes only its card (reading that card's body for its excerpt). What the watcher
/// cannot follow card by card (`board.md`, columns added or removed) and every change this server makes drop the
/// kept board, and the next request reads it again. An event that comes while a request is reading the board makes
/// that reading a one-off: it is answered, not kept.
package final class ServedBoard: Sendable {
    private struct State {
        var kept: (board: LiveBoard, excerpts: [String: String])?
        /// Counts every event and drop: a reading kept only when none came while it read.
        var generation = 0
    }

    package let store: BoardStore
    private let state = Mutex(State())

    package init(store: BoardStore) {
        self.store = store
    }

    /// The board and each card's excerpt by path, read now when nothing is kept.
    package func current() throws(KanbanError) -> (board: LiveBoard, excerpts: [String: String]) {
        let (kept, generation) = state.withLock { ($0.kept, $0.generation) }
        if let kept { return kept }
        let snapshot = try store.load(includeBodies: true)
        var excerpts: [String: String] = [:]
        for card in snapshot.cards { excerpts[card.path] = BoardText.excerpt(of: card.body ?? "") }
        let read = (board: LiveBoard(snapshot: snapshot), excerpts: excerpts)
        state.withLock { if $0.generation == generation { $0.kept = read } }
        return read
    }

    /// Follows an event of the watcher.
    package func apply(_ event: WatchEvent) {
        // The body is read before the lock: a request is never kept waiting on a file.
        var excerpt: String?
        if [.created, .modified, .moved, .renamed, .unarchived].contains(event.kind), let card = event.card {
            excerpt = BoardText.excerpt(of: (try? store.body(of: card)) ?? "")
        }
        state.withLock { state in
            state.generation += 1
            guard var kept = state.kept else { return }
            switch kept.board.apply(event) {
            case .applied:
                for path in [event.previousPath, event.path].compactMap({ $0 }) { kept.excerpts[path] = nil }
                if let excerpt, let path = event.card?.path { kept.excerpts[path] = excerpt }
                state.kept = kept
            case .needsReload, .rootLost:
                state.kept = nil
            }
        }
    }

    /// Drops the kept board: the next request reads it again.
    package func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.kept = nil
        }
    }
}
