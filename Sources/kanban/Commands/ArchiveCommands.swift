import Foundation
import KanbanCore

/// `kanban archive CARD...`.
enum ArchiveCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "archive",
        abstract: "Move cards to the archive.",
        discussion: "Each card moves to archive/YYYY-MM-DD-<slug>.md (today's date) with its file unchanged.",
        arguments: [.repeating("card", help: "A slug, a unique slug prefix or a path.", isOptional: false)],
        options: [CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var archived: [Card] = []
        try context.changeCards(arguments.arguments("card"), in: .active) { store, path in
            let change = try store.archiveCard(path)
            if let card = change.card {
                archived.append(card)
                if !arguments.flag("json") { context.say("archived \(card.slug) → \(context.displayPath(card.path, store: store))") }
            }
            return change
        }
        if arguments.flag("json") { try context.printCardsJSON(archived) }
        return .success
    }
}

/// `kanban unarchive CARD... [--column ID]`.
enum UnarchiveCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "unarchive",
        abstract: "Bring archived cards back.",
        discussion: "Each card goes to the bottom of the column it was archived from (or --column), keeping its slug when free.",
        arguments: [.repeating("card", help: "An archived card's slug, unique slug prefix or path.", isOptional: false)],
        options: [.option("column", short: "c", valueName: "id", help: "The column to bring the cards back to."), CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let board = try context.store().loadBoard()
        var restored: [Card] = []
        try context.changeCards(arguments.arguments("card"), in: .archived) { store, path in
            let change = try store.unarchiveCard(path, to: arguments.value("column"))
            context.warn(change.overLimit)
            if let card = change.card {
                restored.append(card)
                if !arguments.flag("json") { context.say("unarchived \(card.slug) → \(board.columnName(card.column))") }
            }
            return change
        }
        if arguments.flag("json") { try context.printCardsJSON(restored) }
        return .success
    }
}

/// `kanban delete CARD...`.
enum DeleteCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete cards (no prompt; git keeps the history).",
        arguments: [.repeating("card", help: "A slug, a unique slug prefix or a path (archived cards too).", isOptional: false)],
        options: [CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var deleted: [Card] = []
        try context.changeCards(arguments.arguments("card"), in: .all) { store, path in
            let change = try store.deleteCard(path, in: .all)
            if let previous = change.previous { deleted.append(previous) }
            for removed in change.removedPaths where !arguments.flag("json") {
                let slug = change.previous?.slug ?? String((removed as NSString).lastPathComponent.dropLast(3))
                context.say("deleted \(slug) (\(context.displayPath(removed, store: store)))")
            }
            return change
        }
        if arguments.flag("json") { try context.printCardsJSON(deleted, withBodies: false) }
        // Cards that waited for a deleted one now wait for a card that is nowhere: said now, as 'kanban doctor' says it.
        if !deleted.isEmpty, !context.isQuiet, let queue = try? context.store().workQueue() {
            for card in deleted where !queue.exists(card.slug) {
                let waiting = queue.dependents(of: card.slug)
                guard !waiting.isEmpty else { continue }
                context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): \(waiting.joined(separator: ", ")) \(waiting.count == 1 ? "waits" : "wait") for \(card.slug), which is gone; 'kanban depend CARD --remove \(card.slug)' for each")
            }
        }
        return .success
    }
}
