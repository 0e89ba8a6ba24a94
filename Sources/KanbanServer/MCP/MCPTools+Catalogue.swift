import KanbanCore

extension MCPTools {
    /// Every tool, in the order `tools/list` gives them.
    static let catalogue: [MCPTool] = [
        MCPTool(
            name: "board", title: "Board overview",
            description: "The board's title, its columns in order with the number of cards in each, and its labels. Start here: "
                + "column and label ids are what the other tools take.",
            isReadOnly: true, isIdempotent: true,
            properties: { _ in [:] },
            output: object([
                "title": .object(["type": .string("string")]),
                "directory": .object(["type": .string("string")]),
                "columns": .object(["type": .string("array"), "items": object([
                    "id": .object(["type": .string("string")]), "name": .object(["type": .string("string")]),
                    "collapsed": .object(["type": .string("boolean")]), "count": .object(["type": .string("integer")]),
                ], required: ["id", "name", "count"])]),
                "labels": .object(["type": .string("array"), "items": object([
                    "id": .object(["type": .string("string")]), "name": .object(["type": .string("string")]), "color": nullableString,
                ], required: ["id", "name"])]),
                "archived": .object(["type": .string("integer")]),
                "unreadable": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
            ], required: ["title", "columns", "labels"]),
            run: { tools, _ throws(MCPToolError) in try tools.boardOverview() }),
        MCPTool(
            name: "list_cards", title: "List cards",
            description: "Cards in board order (column by column, top to bottom), without bodies. Filter by column, by labels "
                + "(a card must have all of them), or list archived cards instead.",
            isReadOnly: true, isIdempotent: true,
            properties: { board in [
                "column": string("Only cards in this column.", values: columnIDs(board)),
                "labels": strings("Only cards that have every one of these labels.", values: labelIDs(board)),
                "archived": boolean("List archived cards instead of the board's."),
            ] },
            output: object(["cards": .object(["type": .string("array"), "items": cardSchema()]), "count": .object(["type": .string("integer")])],
                           required: ["cards", "count"]),
            run: { tools, arguments throws(MCPToolError) in try tools.listCards(arguments) }),
        MCPTool(
            name: "search_cards", title: "Search cards",
            description: "Cards matching a query in the language of 'kanban search': words (all must match, ignoring case and "
                + "accents) in titles, bodies and labels; \"quoted phrases\"; label:ID, column:ID, title:WORD; a leading - negates "
                + "a term. Example: login \"error page\" label:bug -column:done. Each card comes with the line that matched.",
            isReadOnly: true, isIdempotent: true,
            properties: { _ in [
                "query": string("The query, e.g. 'login -column:done'."),
                "archived": boolean("Search archived cards too."),
            ] },
            required: ["query"],
            output: object(["cards": .object(["type": .string("array"), "items": cardSchema(extra: [
                "match": object(["line": .object(["type": .string("string")]), "lineNumber": .object(["type": .array([.string("integer"), .string("null")])])],
                                required: ["line"]),
            ])]), "count": .object(["type": .string("integer")])], required: ["cards", "count"]),
            run: { tools, arguments throws(MCPToolError) in try tools.searchCards(arguments) }),
        MCPTool(
            name: "show_card", title: "Show a card",
            description: "One card with its body (the markdown after the frontmatter). Archived cards too.",
            isReadOnly: true, isIdempotent: true,
            properties: { _ in ["card": cardArgument] },
            required: ["card"],
            output: cardSchema(withBody: true),
            run: { tools, arguments throws(MCPToolError) in try tools.showCard(arguments) }),
        MCPTool(
            name: "add_card", title: "Add a card",
            description: "A new card. Only the title is needed: it goes to the bottom of the first column, with the board's card "
                + "template as its body, unless told otherwise. Returns the card.",
            isReadOnly: false, isIdempotent: false,
            properties: { board in [
                "title": string("The card's title."),
                "column": string("The column (default: the first).", values: columnIDs(board)),
                "labels": strings("Labels to put on it.", values: labelIDs(board)),
                "body": string("The body, in markdown (default: the board's card template)."),
            ].merging(placementProperties(board)) { first, _ in first } },
            required: ["title"],
            output: object(["card": cardSchema(withBody: true), "committed": commitSchema, "rekeyed": rekeyedSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.addCard(arguments) }),
        MCPTool(
            name: "update_card", title: "Update a card",
            description: "Changes only what is given, leaving every other line of the file as it is: the title, labels added or "
                + "removed (or all of them replaced), the body (replaced whole: read it with show_card first to add to it), and "
                + "other frontmatter fields (a string sets one, null removes it), the cards it waits for (depends_on).",
            isReadOnly: false, isIdempotent: true,
            properties: { board in [
                "card": cardArgument,
                "title": string("The new title."),
                "add_labels": strings("Labels to add.", values: labelIDs(board)),
                "remove_labels": strings("Labels to remove.", values: labelIDs(board)),
                "labels": strings("Replace all the card's labels with these.", values: labelIDs(board)),
                "body": string("The new body, in markdown; replaces the whole body."),
                "fields": .object(["type": .string("object"), "description": .string("Frontmatter fields to set (a string) or remove (null), e.g. {\"assignee\": \"mei\"}."),
                                   "additionalProperties": .object(["type": .array([.string("string"), .string("null")])])]),
                "depends_on": strings("The cards it waits for (slugs), replacing its list; [] clears it."),
            ] },
            required: ["card"],
            output: object(["card": cardSchema(withBody: true), "committed": commitSchema, "rekeyed": rekeyedSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.updateCard(arguments) }),
        MCPTool(
            name: "move_card", title: "Move a card",
            description: "Moves a card to another column (to its bottom unless placed), and/or to a place in its column: top, "
                + "bottom, or just before or after another card. Only the moved card's file changes.",
            isReadOnly: false, isIdempotent: true,
            properties: { board in [
                "card": cardArgument,
                "column": string("The column to move it to.", values: columnIDs(board)),
            ].merging(placementProperties(board)) { first, _ in first } },
            required: ["card"],
            output: object(["card": cardSchema(), "from": .object(["type": .string("string")]), "committed": commitSchema, "rekeyed": rekeyedSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.moveCard(arguments) }),
        MCPTool(
            name: "archive_card", title: "Archive a card",
            description: "Takes a finished card off the board into archive/, where show_card and list_cards (archived) still find it.",
            isReadOnly: false, isIdempotent: false,
            properties: { _ in ["card": cardArgument] },
            required: ["card"],
            output: object(["card": cardSchema(), "committed": commitSchema, "rekeyed": rekeyedSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.archiveCard(arguments) }),
        MCPTool(
            name: "unarchive_card", title: "Unarchive a card",
            description: "Brings an archived card back to the bottom of the column it was archived from, or of the column given.",
            isReadOnly: false, isIdempotent: false,
            properties: { board in [
                "card": string("The archived card: its slug, a unique prefix, or its path (archive/...)."),
                "column": string("The column to bring it back to.", values: columnIDs(board)),
            ] },
            required: ["card"],
            output: object(["card": cardSchema(), "committed": commitSchema, "rekeyed": rekeyedSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.unarchiveCard(arguments) }),
        MCPTool(
            name: "delete_card", title: "Delete a card",
            description: "Deletes a card's file for good (git history keeps it). Prefer archive_card for finished work.",
            isReadOnly: false, isDestructive: true, isIdempotent: false,
            properties: { _ in ["card": cardArgument] },
            required: ["card"],
            output: object(["deleted": .object(["type": .string("string")]), "path": .object(["type": .string("string")]), "committed": commitSchema, "rekeyed": rekeyedSchema],
                           required: ["deleted", "path"]),
            run: { tools, arguments throws(MCPToolError) in try tools.deleteCard(arguments) }),
        MCPTool(
            name: "ready_cards", title: "Ready cards",
            description: "Cards that may be started, in board order: before the start column, every card in their depends-on done, "
                + "held by no one. The first is what claim_card with next takes.",
            isReadOnly: true, isIdempotent: true,
            properties: { _ in [:] },
            output: object(["cards": .object(["type": .string("array"), "items": cardSchema()]), "count": .object(["type": .string("integer")])],
                           required: ["cards", "count"]),
            run: { tools, arguments throws(MCPToolError) in try tools.readyCards(arguments) }),
        MCPTool(
            name: "claim_card", title: "Claim a card",
            description: "Takes a card for you: records claimed-by and claimed-at and moves it to the start column, atomically (two "
                + "agents never get the same card). Refused when someone holds it or it waits for cards not done. With sync, "
                + "shared with other clones through git; a card another clone claimed first is lost (next: the next one is taken).",
            isReadOnly: false, isIdempotent: true,
            properties: { _ in [
                "card": cardArgument,
                "next": boolean("Claim the first ready card."),
                "name": string("Your name (default: the server's KANBAN_AGENT, else git's user.name)."),
                "sync": boolean("Commit and sync with the other clones before and after."),
            ] },
            output: object(["card": cardSchema(withBody: true), "committed": commitSchema,
                            "lost": .object(["type": .string("array"), "items": .object(["type": .string("object")])])], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.claimCard(arguments) }),
        MCPTool(
            name: "release_card", title: "Release a card",
            description: "Gives a card you hold back: removes the claim and moves it (unless done) to the top of the column before the start column.",
            isReadOnly: false, isIdempotent: false,
            properties: { _ in [
                "card": cardArgument,
                "name": string("Your name, as claimed."),
                "force": boolean("Release it though someone else holds it."),
                "sync": boolean("Commit and sync with the other clones."),
            ] },
            required: ["card"],
            output: object(["card": cardSchema(), "committed": commitSchema], required: ["card"]),
            run: { tools, arguments throws(MCPToolError) in try tools.releaseCard(arguments) }),
        MCPTool(
            name: "board_status", title: "Board status",
            description: "The board's git state as 'kanban status --json' gives it: branch, upstream, ahead/behind, an operation "
                + "under way, uncommitted board changes as cards (changes), and cards a merge left to tidy by hand (toTidy).",
            isReadOnly: true, isIdempotent: true,
            properties: { _ in [:] },
            output: object(["state": .object(["type": .string("string")])], required: ["state"]),
            run: { tools, _ throws(MCPToolError) in try tools.boardStatus() }),
        MCPTool(
            name: "sync", title: "Sync with git",
            description: "Does what 'kanban sync' does: commits pending board changes, pulls (merging card by card) and pushes. Returns "
                + "its messages and steps; a sync that fails is an error with its messages (nothing is lost). Only when the user asks for it.",
            isReadOnly: false, isIdempotent: false,
            properties: { _ in ["no_push": boolean("Commit and pull, but do not push.")] },
            output: object(["ok": .object(["type": .string("boolean")]), "messages": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
                            "steps": .object(["type": .string("array"), "items": .object(["type": .string("object")])])],
                           required: ["ok", "messages", "steps"]),
            run: { tools, arguments throws(MCPToolError) in try tools.sync(arguments) }),
    ]
}
