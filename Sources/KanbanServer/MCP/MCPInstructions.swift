/// What `kanban mcp` tells a client at `initialize` and `server/discover`: how the board works and how to use it.
package enum MCPInstructions {
    static let text = """
        This server is a kanban board kept as markdown files in git, next to the code: board.md holds the title, the \
        columns (in order, left to right) and the labels; each card is one file, cards/<column>/<slug>.md, with a \
        frontmatter (title, position, labels, created, modified, any other fields) and a markdown body. Archived cards \
        live in archive/. People, editors, git and other tools change the same files, so read before you act and do not \
        cache what you read for long.

        Names. A card is named by its slug (the file name without .md), a unique prefix of it, or its path. Columns and \
        labels are named by their ids (the enums in the tools' schemas, and what the board tool lists); use ids, never \
        display names. An unknown or ambiguous name is an error that lists the candidates: pick one and call again.

        Working on a card, the usual loop:
        1. claim_card with next: true takes the first ready card (before the start column, every card in its \
        depends-on done, held by no one), records you as claimed-by and moves it to the start column; no two agents get \
        the same card. With sync: true the claim is shared with other clones through git. ready_cards lists the queue; \
        search_cards finds other work (words, "quoted phrases", label:ID, column:ID, title:WORD, claimed:NAME, ready:, \
        -TERM to exclude).
        2. show_card to read the card before you start (fields: depends-on, claimed-by).
        3. update_card to record what you did: read the body with show_card, then send the whole new body (it replaces \
        the old one); add labels with add_labels; depends_on sets what a card waits for.
        4. Before you finish, with sync: sync, then show_card: if claimed-by is no longer you (another clone claimed \
        it first), leave the card.
        5. move_card to the review or done column when you finish; release_card gives a card back. add_card needs only \
        a title.

        Rules. Change only the cards your task is about; never rewrite other cards' bodies or reorder cards you did not \
        work on. Prefer archive_card to delete_card. Changes are committed with git when the board asks for it \
        (autocommit: true in board.md, KANBAN_COMMIT=1, or kanban mcp --commit): do not commit board files yourself in \
        another way. board_status shows the git state, uncommitted board changes and cards a merge left to tidy; sync \
        commits, pulls and pushes, and is for when the user asks for it.

        Resources: kanban://board (the board as markdown) and kanban://card/{slug} (a card's file); subscribe to hear \
        when they change on disk, whoever changed them.
        """

    /// The instructions for a server of `boards` (names; empty for one board, whose instructions are ``text``).
    static func text(boards: [String]) -> String {
        guard !boards.isEmpty else { return text }
        return text + """


            Several boards. This server serves \(boards.count) boards: \(boards.joined(separator: ", ")). Every tool but \
            boards takes 'board', the name of the one to work on (required; the boards tool lists them with their titles). \
            Column and label ids are each board's own: the board tool gives them. Resources are per board: \
            kanban://boards/{board}/board and kanban://boards/{board}/card/{slug} (the name percent-encoded).
            """
    }
}
