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
        // Filtering copies cards (a dozen reference-counted fields each): only when there is something to filter.
        let cards = labels.isEmpty ? snapshot.cards : snapshot.cards.filter { card in labels.allSatisfy(card.labels.contains) }
        context.warn(snapshot.diagnostics)
        if arguments.flag("json") {
            var writer = JSONCardArrayWriter(context.output)
            for index in cards.indices { writer.append(cards[index]) }
            writer.finish()
            return .success
        }
        func heading(_ index: Int) -> String {
            cards[index].isArchived ? "Archive" : board.columnName(cards[index].column)
        }
        var counts: [String: Int] = [:]
        var slugWidth = 0
        for index in cards.indices {
            counts[heading(index), default: 0] += 1
            slugWidth = max(slugWidth, cards[index].slug.terminalWidth)
        }
        slugWidth = min(40, slugWidth)
        let stylist = context.stylist
        var text = ""
        text.reserveCapacity(80_000)
        var group: String?
        for index in cards.indices {
            let title = heading(index)
            if title != group {
                if group != nil { text += "\n" }
                text += stylist.apply(.bold, to: title) + stylist.apply(.dim, to: " (\(counts[title] ?? 0))") + "\n"
                group = title
            }
            text += "  "
            text += stylist.apply(.cyan, to: cards[index].slug.padded(toWidth: slugWidth))
            text += "  "
            text += cards[index].title
            for label in cards[index].labels {
                text += " "
                text += stylist.apply(board.label(withID: label)?.color.map { .foreground(hex: $0) } ?? .dim, to: "[\(label)]")
            }
            if cards[index].isArchived, let date = cards[index].archivedOn { text += stylist.apply(.dim, to: "  archived \(date)") }
            text += "\n"
            if text.utf8.count >= 65_536 {
                context.output.write(text)
                text.removeAll(keepingCapacity: true)
            }
        }
        context.output.write(text)
        if cards.isEmpty && !context.isQuiet {
            context.errorOutput.writeLine(scope == .archived ? "no archived cards" : "no cards")
        }
        return .success
    }
}
