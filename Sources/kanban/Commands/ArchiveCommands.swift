import Foundation
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
        var changes: [BoardChange] = []
        // Every card is found before any is changed, so a typo in the third name changes nothing.
        let paths = try arguments.arguments("card").map { try store.path(of: context.cardReference($0), in: .active) }
        for reference in paths {
            let change = try store.archiveCard(reference)
            changes.append(change)
            if let card = change.card { context.say("archived \(card.slug) → \(context.displayPath(card.path, store: store))") }
        }
        try context.commit(changes)
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
        var changes: [BoardChange] = []
        let paths = try arguments.arguments("card").map { try store.path(of: context.cardReference($0), in: .archived) }
        for reference in paths {
            let change = try store.unarchiveCard(reference, to: arguments.value("column"))
            changes.append(change)
            if let card = change.card { context.say("unarchived \(card.slug) → \(board.columnName(card.column))") }
        }
        try context.commit(changes)
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
        var changes: [BoardChange] = []
        let paths = try arguments.arguments("card").map { try store.path(of: context.cardReference($0), in: .all) }
        for reference in paths {
            let change = try store.deleteCard(reference, in: .all)
            changes.append(change)
            for path in change.removedPaths {
                let slug = change.previous?.slug ?? String((path as NSString).lastPathComponent.dropLast(3))
                context.say("deleted \(slug) (\(context.displayPath(path, store: store)))")
            }
        }
        try context.commit(changes)
        return .success
    }
}
