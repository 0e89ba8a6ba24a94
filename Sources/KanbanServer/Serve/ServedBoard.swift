import KanbanCore
import KanbanWatch
import Synchronization

/// The board `GET /api/board` answers with, kept from the watcher's events instead of read whole for each request
/// (a board of 10,000 cards took 282 ms to read with its bodies; rendering the kept board takes a fraction).
///
/// It is a ``LiveBoard`` (what the TUI and apps keep) and each card's JSON (with its excerpt) rendered, and the
/// last answer made from them. The board is read at start; each watcher event then changes only its card (reading
/// that card's body for its excerpt) and drops the answer, which the next request makes again from the cards' JSON. What the watcher
/// cannot follow card by card (`board.md`, columns added or removed) drops the kept board, and the next request
/// reads it again; a change this server makes is followed as it is made (``follow(_:)``). An event that comes while a request is reading the board makes
/// that reading a one-off: it is answered, not kept.
package final class ServedBoard: Sendable {
    /// The board as kept: the live board, each card's JSON by path, and the answer made from them (if made).
    package struct Kept: Sendable {
        package var board: LiveBoard
        package var cards: [String: String]
        package var answer: String?
    }

    private struct State {
        var kept: Kept?
        /// Counts every event and drop: a reading (or an answer) is kept only when none came meanwhile.
        var generation = 0
    }

    package let store: BoardStore
    private let state = Mutex(State())

    /// Renders a card as the answer has it, given its body.
    private let render: @Sendable (Card, String?) -> String

    package init(store: BoardStore, render: @escaping @Sendable (Card, String?) -> String) {
        self.store = store
        self.render = render
    }

    /// The board as kept, read now when nothing is; and the generation it belongs to (for ``keep(answer:for:)``).
    package func current() throws(KanbanError) -> (kept: Kept, generation: Int) {
        let (kept, generation) = state.withLock { ($0.kept, $0.generation) }
        if let kept { return (kept, generation) }
        let snapshot = try store.load(includeBodies: true)
        var cards: [String: String] = [:]
        for card in snapshot.cards where !card.isArchived { cards[card.path] = render(card, card.body) }
        let read = Kept(board: LiveBoard(snapshot: snapshot), cards: cards)
        state.withLock { if $0.generation == generation { $0.kept = read } }
        return (read, generation)
    }

    /// Keeps the answer made from the board of `generation`, unless the board changed since.
    package func keep(answer: String, for generation: Int) {
        state.withLock { state in
            if state.generation == generation { state.kept?.answer = answer }
        }
    }

    /// Follows an event of the watcher; returns the card's JSON as the board has it, when the card is on the board
    /// after the event (the page's event carries the same).
    @discardableResult
    package func apply(_ event: WatchEvent) -> String? {
        // The card is read and rendered before the lock: a request is never kept waiting on a file.
        var rendered: String?
        if [.created, .modified, .moved, .renamed, .unarchived].contains(event.kind), let card = event.card {
            rendered = render(card, try? store.body(of: card))
        }
        state.withLock { state in
            state.generation += 1
            // Changed in place: a copy of the kept board (10,000 cards) for each event would hold up the next.
            guard state.kept != nil else { return }
            switch state.kept!.board.apply(event) {
            case .applied:
                for path in [event.previousPath, event.path].compactMap({ $0 }) { state.kept!.cards[path] = nil }
                if let rendered, let path = event.card?.path { state.kept!.cards[path] = rendered }
                state.kept!.answer = nil
            case .needsReload, .rootLost:
                state.kept = nil
            }
        }
        return rendered
    }

    /// Follows a change this server made: its card leaves its old place and takes its new one. A change of
    /// `board.md`, or one that re-keyed neighbours to make room, drops the kept board instead.
    package func follow(_ change: BoardChange) {
        let others = change.writtenPaths.filter { $0 != change.card?.path && $0.hasPrefix("cards/") }
        guard !change.paths.contains("board.md"), others.isEmpty else {
            invalidate()
            return
        }
        let rendered = change.card.flatMap { $0.isArchived ? nil : render($0, try? store.body(of: $0)) }
        state.withLock { state in
            state.generation += 1
            guard state.kept != nil else { return }
            state.kept!.board.apply(change)
            for path in [change.previous?.path].compactMap({ $0 }) + change.removedPaths { state.kept!.cards[path] = nil }
            if let rendered, let path = change.card?.path { state.kept!.cards[path] = rendered }
            state.kept!.answer = nil
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
