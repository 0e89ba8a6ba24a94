import KanbanServer
/// The keys of `kanban tui`, for its help screen, `kanban tui --help` and the README.
enum TUIKeys {
    /// Each row: the keys, and what they do.
    static let table: [(keys: String, action: String)] = [
        ("h j k l, arrows", "select a card: left, down, up, right"),
        ("g G, Home End", "first, last card of the column"),
        ("H L, Shift+← →", "move the card to the bottom of the previous, next column"),
        ("K J, Shift+↑ ↓", "move the card up, down its column"),
        ("n", "new card below the selection (type its title, Enter)"),
        ("e, Enter", "open the card in $VISUAL, $EDITOR or vi"),
        ("t", "retitle the card"),
        ("#", "put a label on or off (its number, or j k and Enter)"),
        ("a", "archive the card"),
        ("d", "delete the card (asks y/n)"),
        ("/", "filter as you type, as 'kanban search' (Enter keeps, Esc clears)"),
        ("u", "undo the last change made here"),
        ("Ctrl-L", "draw the screen again"),
        ("Ctrl-Z", "suspend ('fg' comes back)"),
        ("?", "this help"),
        ("q, Ctrl-C", "quit"),
    ]

    /// The table as text lines, the keys in a column of their own.
    static func lines(indent: String = "") -> [String] {
        let width = table.map { $0.keys.terminalWidth }.max() ?? 0
        return table.map { indent + $0.keys.padded(toWidth: width) + "  " + $0.action }
    }
}
