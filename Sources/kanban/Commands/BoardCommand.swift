import Foundation
import KanbanCore

/// `kanban board [--column ID]... [--label ID]... [--json]`: the board in the terminal.
enum BoardCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "board",
        abstract: "Show the board: its columns side by side, with their cards.",
        discussion: """
            The columns are fitted to the terminal's width (when the output is not a terminal, to $COLUMNS, else \
            80). Each column shows its name and card count, then its cards in board order: the title (wrapped, at \
            most three lines, then cut with '…'), the label tags, and the slug, dimmed, by which other commands \
            name the card (a slug cut short still names it when what is shown is a unique prefix). Collapsed columns are drawn narrow, with their name and count only. Directories under \
            cards/ that board.md does not declare come last, marked (undeclared), when they hold cards.

            Columns are never narrower than 16 characters while they share the width: when they do not all fit, \
            they are split, in board order, into bands of columns shown one under the other. A line under the \
            board counts the cards shown and, without filters, the archived ones (--quiet leaves it out).

            Files that cannot be read are reported on standard error and skipped; the board is still shown.

            Examples:
              kanban board
              kanban board --column todo --column in-progress --label bug
              COLUMNS=200 kanban board --color always | less -RS
              kanban board --json | jq '.columns[] | {id, cards: (.cards | length)}'
            """,
        options: [
            .option("column", short: "c", valueName: "id", help: "Only this column; repeat for more.", isRepeatable: true),
            .option("label", short: "l", valueName: "id", help: "Only cards with this label; repeat to require several.", isRepeatable: true),
            CommonOptions.json,
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let requestedColumns = arguments.values("column")
        let requestedLabels = arguments.values("label")
        // The columns shown: those asked for, else every declared one and any other directory holding a card.
        func shownColumns(of columnIDs: [String], board: Board, occupied: Set<String>) throws -> [String] {
            // Undeclared directories count as columns too: the cards in them are on the board.
            for id in requestedColumns where !columnIDs.contains(id) {
                throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: columnIDs)
            }
            return columnIDs.filter { id in
                requestedColumns.isEmpty ? board.column(withID: id) != nil || occupied.contains(id) : requestedColumns.contains(id)
            }
        }
        // As JSON, straight from the board's index when it answers for every card (as `list` does).
        if arguments.flag("json"), case let board = try store.loadBoard(),
           let listing = try store.indexedListing(.active, columns: requestedColumns.isEmpty ? nil : Set(requestedColumns),
                                                  labels: requestedLabels, board: board) {
            KeptUntilExit.keep(listing)
            let occupied = Set(listing.groups.filter { $0.unfilteredCount > 0 }.compactMap(\.column))
            JSONCardArrayWriter.writeBoard(listing, board: board, columns: try shownColumns(of: listing.columnIDs, board: board, occupied: occupied),
                                           to: context.output)
            return .success
        }
        var snapshot = try store.load(.active, columns: requestedColumns.isEmpty ? nil : Set(requestedColumns))
        let board = snapshot.board
        let columnIDs = try shownColumns(of: snapshot.columnIDs, board: board, occupied: Set(snapshot.cards.map(\.column)))
        try board.requireFilterLabels(requestedLabels, carriedBy: snapshot.cards)
        snapshot.cards.removeAll { card in !requestedLabels.allSatisfy(card.labels.contains) }
        context.warn(snapshot.diagnostics)

        if arguments.flag("json") {
            JSONCardArrayWriter.writeBoard(snapshot, columns: columnIDs, to: context.output)
            return .success
        }

        let columns = columnIDs.map { id in
            let column = board.column(withID: id)
            return BoardRenderer.ColumnContent(
                id: id, name: column?.name ?? id, isCollapsed: column?.isCollapsed ?? false,
                isDeclared: column != nil, cards: snapshot.cards(inColumn: id), wipLimit: column?.wipLimit)
        }
        var renderer = BoardRenderer(width: context.width, stylist: context.stylist)
        // What cards wait for: only read (the archive too: an archived card is done) when some card waits for one.
        if snapshot.cards.contains(where: { $0.field(Card.dependenciesKey) != nil }), let flow = try? WorkFlow(board: board) {
            let archived = (try? store.load(.archived).cards.map(\.slug)) ?? []
            renderer.work = WorkQueue(flow: flow, cards: try store.load().cards, archivedSlugs: Set(archived))
        }
        for line in renderer.lines(board: board, columns: columns) {
            context.print(line)
        }
        if !context.isQuiet {
            let isFiltered = !requestedColumns.isEmpty || !requestedLabels.isEmpty
            context.print()
            context.print(renderer.summary(
                cardCount: columns.reduce(0) { $0 + $1.cards.count },
                archivedCount: isFiltered ? nil : archivedCardCount(in: store)))
        }
        return .success
    }

    /// The number of card files in `archive/`, from the directory listing alone: loading the archive would parse
    /// every archived card, and the archive only grows. Names count as `BoardStore` counts them: ending in `.md`,
    /// not hidden, not an editor's backup or autosave. `nil` when the directory cannot be read.
    static func archivedCardCount(in store: BoardStore) -> Int? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: store.directory + "/archive") else {
            return nil
        }
        return names.count { name in
            name.utf8.count > 3 && name.hasSuffix(".md") && !name.hasPrefix(".") && !name.hasPrefix("#")
                && !name.contains("___jb_")
        }
    }
}
