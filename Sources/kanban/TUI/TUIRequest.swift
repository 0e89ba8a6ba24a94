import KanbanCore

/// What a key asks of the session, beyond changing ``TUIState``: the store, the editor, the terminal or a search.
enum TUIRequest: Hashable, Sendable {
    /// Leave, restoring the terminal.
    case quit
    /// Restore the terminal and stop, as Ctrl-Z does; carry on when continued.
    case suspend
    /// Draw the whole screen again.
    case redraw
    /// Change the board.
    case change(BoardEdit)
    /// Undo the newest change of this session.
    case undo
    /// Open the card in the editor.
    case edit(Card)
    /// Run the filter's query; the answer is for this generation of the filter.
    case search(String, generation: Int)
    /// The filter is gone: stop any search.
    case clearSearch
    /// Show another of the boards given (`kanban tui DIR...`): the next (1) or the previous (-1).
    case switchBoard(by: Int)
}

/// A change to the board asked for from the keyboard, made through the store by ``ChangeRunner``.
enum BoardEdit: Hashable, Sendable {
    /// Move a card to another column (`column`) and/or place.
    case move(Card, column: String?, placement: Placement?)
    /// Add a card titled `title` to `column`.
    case create(title: String, column: String, placement: Placement)
    /// Change a card's title.
    case retitle(Card, title: String)
    /// Put a label on a card (`isOn`) or take it off.
    case setLabel(Card, label: String, isOn: Bool)
    /// Archive a card.
    case archive(Card)
    /// Delete a card.
    case delete(Card)
}
