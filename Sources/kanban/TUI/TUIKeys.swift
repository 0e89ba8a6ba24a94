import KanbanCore
import KanbanServer

/// The keys of `kanban tui`, for its help screen, `kanban tui --help` and docs/tui.md.
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
        ("b B", "the next, previous board ('kanban tui DIR...' with several)"),
        ("?", "this help"),
        ("q, Ctrl-C", "quit"),
    ]

    /// The table as text lines, the keys in a column of their own.
    static func lines(indent: String = "") -> [String] {
        let width = table.map { $0.keys.terminalWidth }.max() ?? 0
        return table.map { indent + $0.keys.padded(toWidth: width) + "  " + $0.action }
    }
}

extension TUIKeys {
    /// The key of each board operation (``BoardOperation``) in `kanban tui`, `(always)` for what the screen does by
    /// itself, or why it has none: the full-screen board is for moving and editing cards.
    static let operations: [BoardOperation: OperationAdapter] = [
        .showBoard: .offered("(always)"),
        .listCards: .offered("/"),
        .searchCards: .offered("/"),
        .showCard: .offered("e, Enter"),
        .addCard: .offered("n"),
        .editCard: .offered("t"),
        .moveCard: .offered("H L, Shift+← →"),
        .archiveCard: .offered("a"),
        .listArchive: .absent(because: "the screen shows the columns; 'kanban list --archived' lists the archive"),
        .unarchiveCard: .absent(because: "archived cards are not on the screen; 'u' undoes an archive made here, 'kanban unarchive' any other"),
        .deleteCard: .offered("d"),
        .restoreCard: .offered("u"),
        .addColumn: .absent(because: "columns are board settings: 'kanban column' or the page's settings"),
        .renameColumn: .absent(because: "columns are board settings: 'kanban column' or the page's settings"),
        .collapseColumn: .absent(because: "columns are board settings: 'kanban column' or the page's settings"),
        .limitColumn: .absent(because: "columns are board settings: 'kanban column limit' or the page's settings"),
        .moveColumn: .absent(because: "columns are board settings: 'kanban column' or the page's settings"),
        .removeColumn: .absent(because: "columns are board settings: 'kanban column' or the page's settings"),
        .addLabel: .absent(because: "labels are board settings: 'kanban label' or the page's settings ('#' puts one on a card)"),
        .editLabel: .absent(because: "labels are board settings: 'kanban label' or the page's settings"),
        .moveLabel: .absent(because: "labels are board settings: the page's settings"),
        .removeLabel: .absent(because: "labels are board settings: 'kanban label' or the page's settings"),
        .checkBoard: .absent(because: "a card that does not read is shown in its place with the reason; 'kanban doctor' checks the rest"),
        .status: .absent(because: "the status line says what each change committed; 'kanban status' for the repository"),
        .sync: .absent(because: "run 'kanban sync' beside it: the screen follows what the sync brings in"),
        .cardHistory: .absent(because: "'kanban log CARD' in another terminal"),
        .report: .absent(because: "'kanban report' draws it in the terminal"),
        .followChanges: .offered("(always)"),
        .readyCards: .offered("/"),
        .claimCard: .absent(because: "claims are how agents share work; a person moves the card ('L'), or runs 'kanban claim'"),
        .releaseCard: .absent(because: "claims are how agents share work: 'kanban release'"),
        .setDependencies: .absent(because: "each card shows who holds it and what it still waits for; 'kanban depend' changes what it waits for"),
        .exportCards: .absent(because: "a file for another tool, not a change on the screen: 'kanban export'"),
        .importCards: .absent(because: "reads another tool's file, with a plan to read first: 'kanban import'"),
        .listBoards: .absent(because: "the status line names the board shown and 'b' 'B' switch with several; 'kanban boards' lists them"),
    ]
}
