import KanbanCore

/// `kanban archive CARD...`.
enum ArchiveCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "archive",
        abstract: "Move cards to the archive.",
        discussion: "Each card moves to archive/YYYY-MM-DD-<slug>.md (today's date) with its file unchanged.",
        arguments: [.repeating("card", help: "A slug, a unique slug prefix or a path.", isOptional: false)])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        for reference in arguments.arguments("card") {
            let change = try store.archiveCard(context.cardReference(reference))
            if let card = change.card { context.say("archived \(card.slug) → \(card.path)") }
        }
        return .success
    }
}

/// `kanban unarchive CARD... [--column ID]`.
enum UnarchiveCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "unarchive",
        abstract: "Bring archived cards back.",
        discussion: "Each card goes to the bottom of the column it was archived from (or --column), keeping its slug when free.",
        arguments: [.repeating("card", help: "An archived card's slug, unique slug prefix or path.", isOptional: false)],
        options: [.option("column", short: "c", valueName: "id", help: "The column to bring the cards back to.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let board = try store.loadBoard()
        for reference in arguments.arguments("card") {
            let change = try store.unarchiveCard(context.cardReference(reference), to: arguments.value("column"))
            if let card = change.card { context.say("unarchived \(card.slug) → \(board.columnName(card.column))") }
        }
        return .success
    }
}

/// `kanban delete CARD...`.
enum DeleteCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete cards (no prompt; git keeps the history).",
        arguments: [.repeating("card", help: "A slug, a unique slug prefix or a path (archived cards too).", isOptional: false)])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        for reference in arguments.arguments("card") {
            let change = try store.deleteCard(context.cardReference(reference), in: .all)
            for path in change.removedPaths {
                context.say("deleted \(change.previous?.slug ?? path) (\(context.displayPath(path, store: store)))")
            }
        }
        return .success
    }
}
