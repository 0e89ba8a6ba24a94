import Foundation
import KanbanCore
import KanbanServer

/// `kanban export csv|json|obsidian [--column ID]... [--label ID]... [--archived | --all] [--output FILE]`.
enum ExportCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the board's cards as CSV, JSON or an Obsidian Kanban board, for another tool.",
        discussion: """
            csv: a header row, then a row a card: slug, title, column, position, labels (joined by ', '), created, \
            modified, each other key the cards have (a key named like one of these as field-KEY), then body; \
            quoted as RFC 4180 says, with CRLF line ends. json: an array of the cards as 'kanban show --json' \
            gives them, bodies included. obsidian: a board file of the Obsidian Kanban plugin (a heading a column, \
            an item a card with its labels as #tags and its body indented under it; archived cards, with --all, \
            under Archive). 'kanban import' reads each of them back. Cards in board order; standard output unless --output names a file \
            (written whole or not at all).

            Examples:
              kanban export csv > cards.csv
              kanban export json --all --output board.json
              kanban export csv --label bug --column todo
              kanban export obsidian --all --output ~/vault/Board.md
            """,
        arguments: [.required("format", help: "csv, json or obsidian.")],
        options: [
            .option("column", short: "c", valueName: "id", help: "Only this column; repeat for more.", isRepeatable: true),
            .option("label", short: "l", valueName: "id", help: "Only cards with this label; repeat to require several.", isRepeatable: true),
            .flag("archived", help: "Export archived cards instead."),
            .flag("all", help: "Export active and archived cards."),
            .option("output", short: "o", valueName: "file", help: "Write to this file instead of standard output."),
        ],
        exclusiveOptions: [["archived", "all"]])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let format = arguments.argument("format") ?? ""
        guard ["csv", "json", "obsidian"].contains(format) else { throw arguments.usageError("unknown format '\(format)'; give csv, json or obsidian") }
        let store = try context.store()
        let board = try store.loadBoard()
        let columns = arguments.values("column")
        for id in columns where board.column(withID: id) == nil {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
        let scope: CardScope = arguments.flag("all") ? .all : arguments.flag("archived") ? .archived : .active
        let snapshot = try store.load(scope, columns: columns.isEmpty ? nil : Set(columns), includeBodies: true)
        context.warn(snapshot.diagnostics)
        let labels = arguments.values("label")
        try board.requireFilterLabels(labels, carriedBy: snapshot.cards)
        let cards = snapshot.cards.filter { card in labels.allSatisfy(card.labels.contains) }
        let text: String
        switch format {
        case "csv":
            text = CSVTable(cards: cards).text()
        case "obsidian":
            text = ImportedBoard.obsidianMarkdown(board: board, cards: cards)
        default:
            text = JSON.array(cards.map { JSON(card: $0, includeBody: true, body: $0.body ?? "") }).rendered() + "\n"
        }
        if let path = arguments.value("output") {
            try ReportCommand.write(text, to: path, context: context)
            context.say("exported \(cards.count) card\(cards.count == 1 ? "" : "s") to \(path)")
        } else if context.isOutputTerminal {
            // On a terminal, control characters are shown, never sent (a CR as ^M).
            context.output.write(text)
        } else {
            context.output.writeRaw(text)
        }
        return .success
    }
}
