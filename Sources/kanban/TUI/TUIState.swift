import KanbanCore
import KanbanWatch

/// Everything `kanban tui` shows and remembers, without the terminal: the board, the selection, each column's
/// scroll, the filter, what the keyboard is doing (a prompt, a menu, the help), the status message and the undo
/// stack. Keys go in through ``handle(_:)``; what needs the store, the editor or the terminal comes back out as a
/// ``TUIRequest`` for the session to carry out, and its result comes back in (``apply(_:)``).
struct TUIState: Sendable {
    /// The board shown.
    private(set) var board: LiveBoard
    /// The selected card, or the selected column when it has none.
    var selection = Selection()
    /// The first card shown of each column (an index into its shown cards), by column id; kept by frame building.
    var scrollTops: [String: Int] = [:]
    /// The filter, while one is typed or kept.
    var filter: Filter?
    /// What keys do now.
    var mode = Mode.normal
    /// The line in the status bar about the last thing that happened.
    private(set) var message: StatusMessage?
    /// The changes made in this session, to undo.
    var undoStack = UndoStack()
    /// The boards `kanban tui DIR...` shows, one at a time, and which of them this is; empty for one board.
    var boardNames: [String] = []
    var boardIndex = 0
    /// The cards each column shows under the filter; nil when no filter applies.
    private(set) var filteredCards: [[Card]]?

    /// The selected column and card. The card is known by its path, then its slug, so it stays selected when the
    /// board changes around it (or moves it); its index tells where its neighbours are when it goes away.
    struct Selection: Hashable, Sendable {
        /// The selected column's id.
        var columnID: String?
        /// The selected card's path, if a card is selected.
        var path: String?
        /// The selected card's slug.
        var slug: String?
        /// The selected card's index among the column's shown cards.
        var index = 0
    }

    /// A filter: the query typed, and the paths of the cards it matched.
    struct Filter: Hashable, Sendable {
        /// The query, in `kanban search`'s language.
        var text: String
        /// The paths of the matching cards; nil until the first search for `text` answers.
        var matches: Set<String>?
        /// Counts the searches asked for, so that an answer to an older query is not taken for the current one.
        var generation: Int
        /// Why the query cannot be used as typed (an unclosed quote), if so.
        var problem: String?
    }

    /// What keys do.
    enum Mode: Hashable, Sendable {
        /// Keys select and change cards.
        case normal
        /// Keys edit a line of text at the bottom.
        case prompt(Prompt)
        /// `y` deletes the card, anything else keeps it.
        case confirmingDelete(Card)
        /// Keys pick a label to put on or take off the card.
        case choosingLabel(LabelMenu)
        /// The key table is shown; any key goes back.
        case help
    }

    /// A line being typed.
    struct Prompt: Hashable, Sendable {
        /// What the line is for.
        enum Purpose: Hashable, Sendable {
            case newCard
            case retitle(Card)
            case filter
        }
        var purpose: Purpose
        var text: String

        /// The words before the text: `New card: `.
        var label: String {
            switch purpose {
            case .newCard: return "New card: "
            case .retitle: return "Title: "
            case .filter: return "/"
            }
        }
    }

    /// The label menu: the board's labels, one highlighted.
    struct LabelMenu: Hashable, Sendable {
        var card: Card
        var highlighted = 0
    }

    /// A line for the status bar.
    struct StatusMessage: Hashable, Sendable {
        var text: String
        var isError = false
    }

    /// The state for a board, with the first card of the first expanded column selected.
    init(board: LiveBoard) {
        self.board = board
        let first = board.columns.firstIndex { !$0.isCollapsed } ?? 0
        if board.columns.indices.contains(first) {
            let column = board.columns[first]
            selection = Selection(columnID: column.id, path: column.cards.first?.path, slug: column.cards.first?.slug)
        }
        reselect()
    }

    // MARK: What is shown

    /// The cards column `index` shows: all of them, or those the filter matches.
    func shownCards(inColumn index: Int) -> [Card] {
        filteredCards?[index] ?? board.columns[index].cards
    }

    /// The index of the selected column, if the board has columns.
    var selectedColumn: Int? {
        guard !board.columns.isEmpty else { return nil }
        return selection.columnID.flatMap(board.columnIndex(ofID:)) ?? 0
    }

    /// The selected card, if any.
    var selectedCard: Card? {
        guard let column = selectedColumn, selection.path != nil else { return nil }
        let cards = shownCards(inColumn: column)
        return cards.indices.contains(selection.index) ? cards[selection.index] : nil
    }

    // MARK: Board changes

    /// Takes a new snapshot's board, keeping the selection on the same card where it still is.
    mutating func replaceBoard(_ newBoard: LiveBoard) {
        board = newBoard
        boardDidChange()
    }

    /// Follows the board through a change: `change` is applied to it.
    mutating func updateBoard(_ change: (inout LiveBoard) -> Void) {
        change(&board)
        boardDidChange()
    }

    /// Shows a message in the status bar.
    mutating func say(_ text: String, isError: Bool = false) {
        message = StatusMessage(text: text, isError: isError)
    }

    /// Takes what a change made here did: the board follows it, it is remembered for undo, and the card it names
    /// (if any) is selected.
    mutating func apply(_ result: ChangeResult) {
        for change in result.changes { board.apply(change) }
        for card in result.neighbours { board.update(card) }
        if let matches = filter?.matches {
            // A card the filter showed stays shown at its new path until the next search answers.
            var updated = matches
            for change in result.changes {
                if let previous = change.previous?.path, matches.contains(previous), let card = change.card {
                    updated.insert(card.path)
                } else if change.previous == nil, let card = change.card {
                    updated.insert(card.path)
                }
            }
            filter?.matches = updated
        }
        if let entry = result.undo { undoStack.push(entry) }
        if let path = result.selecting, let card = board.card(atPath: path),
           let column = board.columnIndex(ofID: card.column), !board.columns[column].isCollapsed {
            selection = Selection(columnID: card.column, path: card.path, slug: card.slug, index: selection.index)
        }
        message = StatusMessage(text: result.message, isError: result.isError)
        boardDidChange()
    }

    /// Takes the answer of a search: the paths matched, or why the query could not be run.
    mutating func applySearch(generation: Int, matches: Set<String>?, problem: String?) {
        guard var filter, filter.generation == generation else { return }
        if let matches { filter.matches = matches }
        filter.problem = problem
        self.filter = filter
        boardDidChange()
    }

    private mutating func boardDidChange() {
        if let matches = filter?.matches {
            filteredCards = board.columns.map { column in column.cards.filter { matches.contains($0.path) } }
        } else {
            filteredCards = nil
        }
        reselect()
    }

    /// Puts the selection back on its card after the board changed: at its path, else at its slug (another
    /// process moved it), else on the card that took its place in its column (or the one above, at the end).
    private mutating func reselect() {
        guard !board.columns.isEmpty else {
            selection = Selection()
            return
        }
        if let path = selection.path, let (column, index) = shownLocation(ofPath: path) {
            select(column: column, index: index)
            return
        }
        let preferred = selection.columnID.flatMap(board.columnIndex(ofID:))
        if let slug = selection.slug, let (column, index) = shownLocation(ofSlug: slug, preferring: preferred) {
            select(column: column, index: index)
            return
        }
        var column = preferred ?? 0
        if board.columns[column].isCollapsed, let expanded = nearestExpandedColumn(to: column) { column = expanded }
        select(column: column, index: selection.index)
    }

    private func shownLocation(ofPath path: String) -> (Int, Int)? {
        guard let (column, index) = board.location(ofPath: path), !isHidden(column) else { return nil }
        guard let filtered = filteredCards else { return (column, index) }
        return filtered[column].firstIndex { $0.path == path }.map { (column, $0) }
    }

    private func shownLocation(ofSlug slug: String, preferring preferred: Int?) -> (Int, Int)? {
        guard let (column, index) = board.location(ofSlug: slug, preferring: preferred), !isHidden(column) else { return nil }
        guard let filtered = filteredCards else { return (column, index) }
        return filtered[column].firstIndex { $0.slug == slug }.map { (column, $0) }
    }

    /// Whether a column's cards are hidden: it is collapsed, and some column is not.
    private func isHidden(_ column: Int) -> Bool {
        board.columns[column].isCollapsed && board.columns.contains { !$0.isCollapsed }
    }

    private func nearestExpandedColumn(to column: Int) -> Int? {
        board.columns.indices.filter { !board.columns[$0].isCollapsed }.min { abs($0 - column) < abs($1 - column) }
    }

    /// Selects the card at `index` (clamped) of the shown cards of `column`, or the column alone when it shows none.
    private mutating func select(column: Int, index: Int) {
        let cards = shownCards(inColumn: column)
        let id = board.columns[column].id
        guard !cards.isEmpty else {
            selection = Selection(columnID: id, path: nil, slug: nil, index: 0)
            return
        }
        let clamped = min(max(0, index), cards.count - 1)
        selection = Selection(columnID: id, path: cards[clamped].path, slug: cards[clamped].slug, index: clamped)
    }
}
