import KanbanCore

/// `kanban move CARD [COLUMN] [placement]` and `kanban move CARD... --to COLUMN`.
enum MoveCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "move",
        abstract: "Move cards to another column and/or place.",
        discussion: """
            Moving to another column puts the card at the bottom unless a place is given. '--before' and '--after' \
            alone reorder a card next to another (in that card's column). Only the moved card's file changes, \
            unless its neighbours' keys leave no room, when the fewest neighbours are re-keyed.

            Examples:
              kanban move fix-login done
              kanban move fix-login --after write-docs
              kanban move fix-login write-docs add-tests --to done
            """,
        usage: """
            kanban move <card> [<column>] [--top | --bottom | --before <card> | --after <card>]
            kanban move <card>... --to <column> [--top | --bottom | --before <card> | --after <card>]
            """,
        arguments: [
            .repeating("card", help: "A slug, a unique slug prefix or a path."),
            .optional("column", help: "The column to move to (without --to: the last argument, when two are given)."),
        ],
        options: [
            .option("to", short: "t", valueName: "column", help: "The column to move every named card to."),
            CommonOptions.strictLimits,
            CommonOptions.json,
        ] + CommonOptions.placement,
        exclusiveOptions: [CommonOptions.placementGroup])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var references = arguments.arguments("card")
        var column = arguments.argument("column")
        if let to = arguments.value("to") {
            if let column { references.append(column) }
            column = to
        } else if references.count > 1 {
            throw arguments.usageError("to move several cards, name the column with --to")
        }
        guard !references.isEmpty else { throw arguments.usageError("missing argument '<card>'") }
        let placement = try arguments.placement(context)
        if column == nil && placement == nil {
            throw arguments.usageError("say where to: a column, --to, --top, --bottom, --before or --after")
        }
        let board = try context.store().loadBoard()
        var currentPlacement = placement
        let isJSON = arguments.flag("json")
        var moved: [Card] = []
        try context.changeCards(references, in: .active) { store, path in
            // Several cards sent to a column: one already there stays where it is, as the app's bulk move leaves it.
            if references.count > 1, let column, let card = try? store.card(path, in: .active), card.column == column {
                if isJSON { moved.append(card) } else { context.say("\(card.slug) is already in \(board.columnName(card.column))") }
                return BoardChange(card: card, previous: card, writtenPaths: [], removedPaths: [])
            }
            let change = try store.moveCard(path, to: column, placement: currentPlacement, strictLimits: arguments.flag("strict"))
            context.warn(change.overLimit)
            guard let card = change.card, let previous = change.previous else { return change }
            // Several cards keep their order: each goes after the one moved before it.
            if references.count > 1 { currentPlacement = .after(card.path) }
            if isJSON {
                moved.append(card)
                return change
            }
            if previous.column != card.column {
                context.say("moved \(card.slug): \(board.columnName(previous.column)) → \(board.columnName(card.column))")
            } else if change.writtenPaths.isEmpty {
                context.say("\(card.slug) is already in \(board.columnName(card.column))")
            } else {
                context.say("moved \(card.slug) within \(board.columnName(card.column))")
            }
            let rekeyed = change.writtenPaths.count - 1
            if rekeyed > 0 && !context.isQuiet {
                context.errorOutput.writeLine("  re-keyed \(rekeyed) neighbouring card\(rekeyed == 1 ? "" : "s") to make room")
            }
            return change
        }
        if isJSON { try context.printCardsJSON(moved) }
        return .success
    }
}
