import Foundation
import KanbanCore
import KanbanServer

/// `kanban label list|add|rename|move|remove ...`: the labels declared in board.md.
enum LabelCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "label",
        abstract: "List, add, rename, recolour and remove labels.",
        discussion: """
            Changes rewrite only the 'labels:' block of board.md; the title, other keys, comments and the notes \
            below keep their bytes. A label's id is what cards write in 'labels:' and never changes; its name \
            and colour are what boards show. Without a subcommand, lists the labels.

            The colour option is spelled --colour, because --color chooses when output is coloured.

            Examples:
              kanban label add urgent Urgent --colour "#e74c3c"
              kanban label rename bug Defect
              kanban label rename bug --colour "#c0392b"
              kanban label move urgent --first
              kanban label remove wontfix --strip
            """,
        subcommands: [list, add, rename, move, remove],
        defaultSubcommand: "list")

    static let list = CommandSpec(
        name: "list",
        abstract: "List the labels with their names, colours and how many cards carry them.",
        discussion: """
            --json prints an array of {"id", "name", "color", "cards"}: "color" is null when the label has none, \
            "cards" is the number of active cards carrying the label.
            """,
        options: [CommonOptions.json])

    static let colour = OptionSpec.option("colour", valueName: "hex", help: "The label's colour, \"#rrggbb\" or \"#rgb\" (quote it: '#' starts a shell comment).")

    static let add = CommandSpec(
        name: "add",
        abstract: "Declare a new label.",
        discussion: """
            Without --colour the label gets the first colour of kanban's palette that the board does not use yet \
            (#e74c3c, #3498db, #2ecc71, ...): SimpleKanban ignores a label without a colour, and drops it from \
            board.md when it next saves the board.
            """,
        arguments: [
            .required("id", help: "The label's id, which cards write: no spaces, commas, brackets, quotes, ':' or '#'."),
            .optional("name", help: "Its display name (default: the id)."),
        ],
        options: [colour])

    static let rename = CommandSpec(
        name: "rename",
        abstract: "Change a label's display name and/or colour (its id, which cards use, stays).",
        usage: "kanban label rename <id> [<name>] [--colour <hex>]",
        arguments: [
            .required("id", help: "The label's id."),
            .optional("name", help: "The new display name (may be left out when --colour is given)."),
        ],
        options: [colour])

    static let move = CommandSpec(
        name: "move",
        abstract: "Change a label's place in the order boards list labels in.",
        usage: "kanban label move <id> (--to <position> | --before <label> | --after <label> | --first | --last)",
        arguments: [.required("id", help: "The label's id.")],
        options: [
            .option("to", valueName: "position", help: "Put it at this place, 1 being the first label."),
            .option("before", valueName: "label", help: "Put it just before this label."),
            .option("after", valueName: "label", help: "Put it just after this label."),
            .flag("first", help: "Make it the first label."),
            .flag("last", help: "Make it the last label."),
        ],
        exclusiveOptions: [["to", "before", "after", "first", "last"]])

    static let remove = CommandSpec(
        name: "remove",
        abstract: "Remove a label from board.md, and with --strip from the cards too.",
        discussion: """
            Without --strip, cards that carry the label keep it in their files (doctor then reports it as \
            undeclared) and a warning says how many. With --strip, it is also removed from every card, active \
            and archived, that carries it; this works for a label board.md no longer declares, too.
            """,
        arguments: [.required("id", help: "The label's id.")],
        options: [.flag("strip", help: "Also remove the label from every card that carries it.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch arguments.subcommandPath.dropFirst().first {
        case "add": return try runAdd(arguments, context)
        case "rename": return try runRename(arguments, context)
        case "move": return try runMove(arguments, context)
        case "remove": return try runRemove(arguments, context)
        default: return try runList(arguments, context)
        }
    }

    // MARK: Subcommands

    static func runList(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let snapshot = try store.load(.active)
        context.warn(snapshot.diagnostics)
        let labels = snapshot.board.labels
        var counts: [String: Int] = [:]
        for card in snapshot.cards {
            for label in Set(card.labels) { counts[label, default: 0] += 1 }
        }
        if arguments.flag("json") {
            context.printJSON(.array(labels.map { label in
                .object([
                    "id": .string(label.id),
                    "name": .string(label.name),
                    "color": label.color.map(JSON.string) ?? .null,
                    "cards": .number(String(counts[label.id] ?? 0)),
                ])
            }))
            return .success
        }
        if labels.isEmpty && !context.isQuiet {
            context.errorOutput.writeLine("no labels; add one with 'kanban label add ID [NAME]'")
        }
        let stylist = context.stylist
        let idWidth = min(32, labels.map { $0.id.terminalWidth }.max() ?? 0)
        let nameWidth = min(40, labels.map { $0.name.terminalWidth }.max() ?? 0)
        let colorWidth = labels.map { ($0.color ?? "").terminalWidth }.max() ?? 0
        let countWidth = labels.map { String(counts[$0.id] ?? 0).count }.max() ?? 1
        for label in labels {
            let count = counts[label.id] ?? 0
            var line = stylist.apply(.cyan, to: label.id.padded(toWidth: idWidth)) + "  "
                + label.name.truncated(toWidth: nameWidth).padded(toWidth: nameWidth) + "  "
            if colorWidth > 0 {
                if stylist.isEnabled {
                    line += (label.color.map { stylist.apply(.tag(hex: $0), to: "  ") } ?? "  ") + " "
                }
                line += (label.color ?? "").padded(toWidth: colorWidth) + "  "
            }
            line += String(count).padded(toWidth: countWidth, alignment: .trailing) + (count == 1 ? " card" : " cards")
            context.print(line)
        }
        return .success
    }

    static func runAdd(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let name = try oneLineName(arguments.argument("name")) ?? id
        let color = arguments.value("colour")
        let store = try context.store()
        let change = try store.addLabel(id: id, name: name, color: color)
        // Without --colour the store chose one from its palette: say which.
        let written = color ?? (try? store.loadBoard())?.labels.first { $0.id == id }?.color
        context.say("added label \(id) \"\(name)\"" + (written.map { " \($0)" } ?? ""))
        try context.commit(change, message: .board("Add label \"\(name)\"", "Label", id))
        return .success
    }

    static func runRename(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let name = try oneLineName(arguments.argument("name"))
        let color = arguments.value("colour")
        guard name != nil || color != nil else {
            throw arguments.usageError("give a new name, --colour, or both")
        }
        let store = try context.store()
        let board = try store.loadBoard()
        guard let old = board.label(withID: id) else { throw labelNotFound(id, board: board) }
        let change = try store.renameLabel(id, to: name, color: color)
        var changes: [String] = []
        if let name { changes.append("\(old.name) → \(name)") }
        if let color { changes.append("\(old.color ?? "no colour") → \(color)") }
        context.say("\(name == nil ? "recoloured" : "renamed") label \(id): \(changes.joined(separator: ", "))")
        try context.commit(change, message: .board("\(name == nil ? "Recolour" : "Rename") label \"\(old.name)\"" + (name.map { " to \"\($0)\"" } ?? ""), "Label", id))
        return .success
    }

    static func runRemove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let strip = arguments.flag("strip")
        let store = try context.store()
        let board = try store.loadBoard()
        guard board.label(withID: id) != nil else {
            // A label already gone from board.md can still be stripped from the cards that carry it.
            guard strip else { throw labelNotFound(id, board: board) }
            let carriers = try store.load(.all).cards.filter { $0.labels.contains(id) }
            guard !carriers.isEmpty else { throw labelNotFound(id, board: board) }
            var changes: [BoardChange] = []
            for card in carriers {
                changes.append(try store.updateCard(card.path, CardUpdate(removedLabels: [id]), in: .all))
            }
            context.say("stripped undeclared label \(id) from \(cards(carriers.count))")
            try context.commit(changes, message: .board("Strip label \(id) from \(cards(carriers.count))", "Label", id))
            return .success
        }
        if strip {
            let change = try store.removeLabel(id, strippingCards: true)
            let stripped = change.writtenPaths.count - 1
            context.say("removed label \(id)" + (stripped > 0 ? " (stripped it from \(cards(stripped)))" : ""))
            try context.commit(change, message: .board("Remove label \(id)" + (stripped > 0 ? " and strip it from \(cards(stripped))" : ""), "Label", id))
            return .success
        }
        let carriers = try store.load(.all).cards.filter { $0.labels.contains(id) }.count
        let change = try store.removeLabel(id)
        context.say("removed label \(id)")
        try context.commit(change, message: .board("Remove label \(id)", "Label", id))
        if carriers > 0 {
            let label = context.errorStylist.apply(.bold + .yellow, to: "warning")
            context.errorOutput.writeLine(
                "\(label): \(cards(carriers)) still carr\(carriers == 1 ? "ies" : "y") '\(id)'; "
                    + "'kanban label remove \(id) --strip' removes it from them")
        }
        return .success
    }

    // MARK: Helpers

    /// The name trimmed, or nil when none was given; a name must be one non-empty line.
    private static func oneLineName(_ name: String?) throws(KanbanError) -> String? {
        guard let name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\n"), !trimmed.contains("\r") else {
            throw KanbanError(.invalidArgument, "a label needs a one-line name")
        }
        return trimmed
    }

    static func runMove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        guard let choice = try arguments.exclusiveOption(among: ["to", "before", "after", "first", "last"]) else {
            throw arguments.usageError("say where to: --to N, --before ID, --after ID, --first or --last")
        }
        let store = try context.store()
        let board = try store.loadBoard()
        guard let from = board.labels.firstIndex(where: { $0.id == id }) else { throw labelNotFound(id, board: board) }
        // The library takes the label out, then inserts it at the index, so places are counted without it.
        let others = board.labels.filter { $0.id != id }
        let count = board.labels.count
        let index: Int
        switch choice {
        case "to":
            let text = arguments.value("to") ?? ""
            guard let position = Int(text), position >= 1 else {
                throw arguments.usageError("'--to' takes a position from 1 (the first label), not '\(text)'")
            }
            guard position <= count else { throw KanbanError(.invalidArgument, "position \(position) is out of range: use 1 to \(count)") }
            index = position - 1
        case "before", "after":
            let reference = arguments.value(choice) ?? ""
            guard reference != id else { throw KanbanError(.invalidArgument, "cannot put label '\(id)' \(choice) itself") }
            guard let referenceIndex = others.firstIndex(where: { $0.id == reference }) else { throw labelNotFound(reference, board: board) }
            index = choice == "before" ? referenceIndex : referenceIndex + 1
        case "first": index = 0
        default: index = others.count
        }
        if index == from {
            context.say("label \(id) is already at position \(index + 1) of \(count)")
            return .success
        }
        let change = try store.moveLabel(id, to: index)
        context.say("moved label \(id) to position \(index + 1) of \(count)")
        try context.commit(change, message: .board("Move label \(ColumnCommand.quoted(board.labels[from].name)) to position \(index + 1)", "Label", id))
        return .success
    }

    private static func labelNotFound(_ id: String, board: Board) -> KanbanError {
        KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: board.labels.map(\.id))
    }

    /// `1 card`, `3 cards`.
    private static func cards(_ count: Int) -> String {
        count == 1 ? "1 card" : "\(count) cards"
    }
}
