import KanbanCore

/// `kanban list [--column ID]... [--label ID]... [--archived | --all] [--json]`.
enum ListCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List cards in board order, grouped by column.",
        discussion: """
            Files that cannot be read are reported on standard error and skipped; the listing still succeeds \
            ('kanban doctor' is the command that fails on them).
            """,
        options: [
            .option("column", short: "c", valueName: "id", help: "Only this column; repeat for more.", isRepeatable: true),
            .option("label", short: "l", valueName: "id", help: "Only cards with this label; repeat to require several.", isRepeatable: true),
            .flag("archived", help: "List archived cards instead."),
            .flag("all", help: "List active and archived cards."),
            CommonOptions.json,
        ],
        exclusiveOptions: [["archived", "all"]])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let scope: CardScope = arguments.flag("all") ? .all : arguments.flag("archived") ? .archived : .active
        let columns = arguments.values("column")
        let board = try store.loadBoard()
        for id in columns where board.column(withID: id) == nil {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
        let labels = arguments.values("label")
        // The board's index answers when it can for every card (no file to read, nothing to report): the text is
        // written from its bytes, and the JSON from cards made a run at a time, never all at once.
        if let listing = try store.indexedListing(scope, columns: columns.isEmpty ? nil : Set(columns), labels: labels, board: board) {
            KeptUntilExit.keep(listing)
            if arguments.flag("json") {
                JSONCardArrayWriter.write(listing, to: context.output)
                return .success
            }
            let rows = IndexedRows(listing)
            ChunkedText.write(count: rows.count, to: context.output, bytes: ListRenderer(rows: rows, board: board, stylist: context.stylist).bytes(_:))
            if rows.count == 0 && !context.isQuiet {
                context.errorOutput.writeLine(scope == .archived ? "no archived cards" : "no cards")
            }
            return .success
        }
        let snapshot = try store.load(scope, columns: columns.isEmpty ? nil : Set(columns))
        KeptUntilExit.keep(snapshot)
        try board.requireFilterLabels(labels, carriedBy: snapshot.cards)
        // Filtering copies cards (a dozen reference-counted fields each): only when there is something to filter.
        let cards = labels.isEmpty ? snapshot.cards : snapshot.cards.filter { card in labels.allSatisfy(card.labels.contains) }
        KeptUntilExit.keep(cards)
        context.warn(snapshot.diagnostics)
        if arguments.flag("json") {
            JSONCardArrayWriter.write(cards, to: context.output)
            return .success
        }
        ChunkedText.write(count: cards.count, to: context.output, bytes: ListRenderer(cards: cards, board: board, stylist: context.stylist).bytes(_:))
        if cards.isEmpty && !context.isQuiet {
            context.errorOutput.writeLine(scope == .archived ? "no archived cards" : "no cards")
        }
        return .success
    }
}
