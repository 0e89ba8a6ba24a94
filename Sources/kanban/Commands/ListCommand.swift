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
        let snapshot = try store.load(scope, columns: columns.isEmpty ? nil : Set(columns))
        let labels = arguments.values("label")
        let cards = snapshot.cards.filter { card in labels.allSatisfy(card.labels.contains) }
        context.warn(snapshot.diagnostics)
        if arguments.flag("json") {
            context.printJSON(.array(cards.map { JSON(card: $0) }))
            return .success
        }
        let stylist = context.stylist
        let slugWidth = min(40, cards.map { $0.slug.terminalWidth }.max() ?? 0)
        var group: String?
        for card in cards {
            let heading = card.isArchived ? "Archive" : snapshot.board.columnName(card.column)
            if heading != group {
                if group != nil { context.print() }
                let count = cards.lazy.filter { ($0.isArchived ? "Archive" : snapshot.board.columnName($0.column)) == heading }.count
                context.print(stylist.apply(.bold, to: heading) + stylist.apply(.dim, to: " (\(count))"))
                group = heading
            }
            var line = "  " + stylist.apply(.cyan, to: card.slug.padded(toWidth: slugWidth)) + "  " + card.title
            if !card.labels.isEmpty {
                line += " " + card.labels.map { label in
                    stylist.apply(snapshot.board.label(withID: label)?.color.map { .foreground(hex: $0) } ?? .dim, to: "[\(label)]")
                }.joined(separator: " ")
            }
            if card.isArchived, let date = card.archivedOn { line += stylist.apply(.dim, to: "  archived \(date)") }
            context.print(line)
        }
        if cards.isEmpty && !context.isQuiet {
            context.errorOutput.writeLine(scope == .archived ? "no archived cards" : "no cards")
        }
        return .success
    }
}
