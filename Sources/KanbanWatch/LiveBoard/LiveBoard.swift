import KanbanCore

/// A board kept up to date while it is shown: the columns `kanban board` shows, each with its cards in board order,
/// and the files that could not be read. `kanban tui` draws it; an app can keep one for a view.
///
/// It starts from a snapshot the store loaded, and follows changes card by card: the store's results for changes
/// made here, and the watcher's events for everyone else's (each event carries the card the watcher read from its
/// file). A change to `board.md` or to the column directories asks for a new snapshot instead. A card is known by
/// its path, which names its column and slug. A card whose file cannot be read stays in its place (as last read, or
/// a stand-in named after its file), with the reason in ``problems``, so that it can be opened and fixed.
public struct LiveBoard: Sendable, Hashable, Codable {
    /// One column and its cards in board order, as `kanban board` draws them.
    public struct Column: Hashable, Sendable, Identifiable, Codable {
        /// The column id (the directory under `cards/`).
        public var id: String
        /// The display name.
        public var name: String
        /// Whether the column is shown narrow.
        public var isCollapsed: Bool
        /// Whether `board.md` declares the column; a directory holding cards that it does not declare is shown too.
        public var isDeclared: Bool
        /// The cards in board order.
        public var cards: [Card]
        /// Its WIP limit in `board.md`, if it has one.
        public var wipLimit: Int?

        /// Creates a column.
        public init(id: String, name: String, isCollapsed: Bool = false, isDeclared: Bool = true, cards: [Card], wipLimit: Int? = nil) {
            self.id = id
            self.name = name
            self.isCollapsed = isCollapsed
            self.isDeclared = isDeclared
            self.cards = cards
            self.wipLimit = wipLimit
        }

        /// Whether it holds more cards than its WIP limit.
        public var isOverLimit: Bool { wipLimit.map { cards.count > $0 } ?? false }
    }

    /// The settings from `board.md`.
    public private(set) var board: Board
    /// The columns in display order: those `board.md` declares, then undeclared directories holding cards.
    public private(set) var columns: [Column]
    /// The card files that could not be read, by path, with the reason as `path:line:column: message`.
    public private(set) var problems: [String: String]

    /// An empty board with no title and no columns, which a ``LiveBoardModel`` shows until it has loaded.
    init() {
        board = Board(title: "", columns: [])
        columns = []
        problems = [:]
    }

    /// The board as `snapshot` has it.
    public init(snapshot: BoardSnapshot) {
        board = snapshot.board
        var cardsByColumn: [String: [Card]] = [:]
        for card in snapshot.cards where !card.isArchived {
            cardsByColumn[card.column, default: []].append(card)
        }
        let board = snapshot.board
        columns = snapshot.columnIDs.compactMap { id in
            let declared = board.column(withID: id)
            let cards = cardsByColumn[id] ?? []
            guard declared != nil || !cards.isEmpty else { return nil }
            return Column(id: id, name: declared?.name ?? id, isCollapsed: declared?.isCollapsed ?? false,
                          isDeclared: declared != nil, cards: cards, wipLimit: declared?.wipLimit)
        }
        problems = [:]
        for diagnostic in snapshot.diagnostics where diagnostic.severity == .error {
            let path = diagnostic.location.path
            problems[path] = "\(diagnostic.location): \(diagnostic.message)"
            if location(ofPath: path) == nil, let standIn = Card(unreadableAt: path) { insert(standIn) }
        }
    }

    /// Whether the card at `path` could not be read the last time its file changed.
    public func isUnreadable(_ path: String) -> Bool {
        problems[path] != nil
    }

    /// The number of cards on the board, collapsed columns included.
    public var cardCount: Int { columns.reduce(0) { $0 + $1.cards.count } }

    /// The index of the column with this id.
    public func columnIndex(ofID id: String) -> Int? {
        columns.firstIndex { $0.id == id }
    }

    /// Where the card with this path is: its column's index and its index there.
    public func location(ofPath path: String) -> (column: Int, index: Int)? {
        guard let id = Self.columnID(ofPath: path), let column = columnIndex(ofID: id),
              let index = columns[column].cards.firstIndex(where: { $0.path == path })
        else { return nil }
        return (column, index)
    }

    /// Where a card with this slug is, looking in `preferredColumn` first.
    public func location(ofSlug slug: String, preferring preferredColumn: Int?) -> (column: Int, index: Int)? {
        let order = (preferredColumn.map { [$0] } ?? []) + columns.indices.filter { $0 != preferredColumn }
        for column in order where columns.indices.contains(column) {
            if let index = columns[column].cards.firstIndex(where: { $0.slug == slug }) { return (column, index) }
        }
        return nil
    }

    /// The card with this path, if it is on the board.
    public func card(atPath path: String) -> Card? {
        location(ofPath: path).map { columns[$0.column].cards[$0.index] }
    }

    // MARK: Changes

    /// What applying changes asks of the caller.
    public enum Outcome: Equatable, Sendable {
        /// The board is up to date.
        case applied
        /// `board.md` or the column directories changed: load a new snapshot.
        case needsReload
        /// The board directory went away.
        case rootLost(String)
    }

    /// Follows what a change made here did: the card leaves its old path and, when it is still on the board, takes
    /// its place at the new one; a card another change put back reads back in its place.
    public mutating func apply(_ change: BoardChange) {
        if let previous = change.previous { removeCard(atPath: previous.path) }
        for path in change.removedPaths {
            removeCard(atPath: path)
            problems[path] = nil
        }
        if let card = change.card {
            removeCard(atPath: card.path)
            problems[card.path] = nil
            if !card.isArchived { insert(card) }
        }
    }

    /// Follows what another process did, as the watcher reports it.
    public mutating func apply(_ event: WatchEvent) -> Outcome {
        switch event.kind {
        case .board, .columnAdded, .columnRemoved:
            return .needsReload
        case .rootLost:
            return .rootLost(event.message ?? "the board directory went away")
        case .invalid:
            if let path = event.path {
                let location = event.location.map(String.init(describing:)) ?? path
                problems[path] = "\(location): \(event.message ?? "the card cannot be read")"
                // Kept in place, as last read, so that it can be opened and fixed.
                if self.location(ofPath: path) == nil {
                    if var last = event.card, !last.isArchived, Self.columnID(ofPath: path) == last.column {
                        last.path = path
                        insert(last)
                    } else if let standIn = Card(unreadableAt: path) {
                        if columnIndex(ofID: standIn.column) == nil { return .needsReload }
                        insert(standIn)
                    }
                }
            }
        case .deleted, .archived, .created, .modified, .moved, .renamed, .unarchived:
            for path in [event.previousPath, event.path].compactMap({ $0 }) {
                removeCard(atPath: path)
                problems[path] = nil
            }
            if [.created, .modified, .moved, .renamed, .unarchived].contains(event.kind), let card = event.card,
               !card.isArchived {
                if columnIndex(ofID: card.column) == nil { return .needsReload }
                insert(card)
            }
        }
        return .applied
    }

    /// Puts `card` in place of the card with its path (or adds it): a card read again, such as a neighbour a move
    /// re-keyed to make room.
    public mutating func update(_ card: Card) {
        removeCard(atPath: card.path)
        if !card.isArchived { insert(card) }
    }

    /// Removes the card at `path`, if it is on the board.
    private mutating func removeCard(atPath path: String) {
        guard let (column, index) = location(ofPath: path) else { return }
        columns[column].cards.remove(at: index)
    }

    /// Puts `card` in its column, in board order (after any card with the same path is gone).
    private mutating func insert(_ card: Card) {
        // Bodies are not shown: a card read with its body (the store's answer to a change) leaves it out here.
        var card = card
        card.body = nil
        guard let column = columnIndex(ofID: card.column) else {
            columns.append(Column(id: card.column, name: card.column, isCollapsed: false, isDeclared: false, cards: [card]))
            return
        }
        var low = 0
        var high = columns[column].cards.count
        while low < high {
            let middle = (low + high) / 2
            if Card.precedes(columns[column].cards[middle], card) { low = middle + 1 } else { high = middle }
        }
        columns[column].cards.insert(card, at: low)
    }

    /// The column id of an active card's path, `cards/<id>/<name>.md`.
    public static func columnID(ofPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "cards" else { return nil }
        return String(parts[1])
    }
}
