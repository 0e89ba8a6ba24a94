import Foundation
import KanbanCore
import KanbanServer

/// `kanban column list|add|rename|remove|move|collapse|expand ...`: the board's columns in board.md.
enum ColumnCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "column",
        abstract: "List, add, rename, remove, reorder and collapse columns; set WIP limits and queues.",
        discussion: """
            Changes rewrite only the 'columns:' block of board.md; the title, other keys, comments and the notes \
            below keep their bytes. A column's id names its directory under cards/ and never changes; its name \
            is what boards show. Without a subcommand, lists the columns.

            Examples:
              kanban column add review "In Review" --after in-progress
              kanban column rename todo "Up Next"
              kanban column move review --before done
              kanban column remove review --move-cards-to done
              kanban column limit in-progress 4
              kanban column queue review
            """,
        subcommands: [list, add, rename, remove, move, collapse, expand, limit, queue],
        defaultSubcommand: "list")

    static let list = CommandSpec(
        name: "list",
        abstract: "List the columns with their names and card counts.",
        discussion: """
            --json prints an array of {"id", "name", "collapsed", "cards", "limit", "queue"}, where "cards" is the \
            number of active cards in the column, "limit" its WIP limit (null for none) and "queue" whether it is \
            marked as a queue.
            """,
        options: [CommonOptions.json])

    static let add = CommandSpec(
        name: "add",
        abstract: "Add a column (last unless told where).",
        arguments: [
            .required("id", help: "The new column's id, which names its directory: letters, digits, '-', '_' or '.'."),
            .optional("name", help: "Its display name (default: the id)."),
        ],
        options: placementOptions(including: []),
        exclusiveOptions: [["at", "before", "after"]])

    static let rename = CommandSpec(
        name: "rename",
        abstract: "Change a column's display name (its id and directory stay).",
        arguments: [
            .required("id", help: "The column's id."),
            .required("name", help: "The new display name."),
        ])

    static let remove = CommandSpec(
        name: "remove",
        abstract: "Remove a column from the board.",
        discussion: """
            A column that holds cards is removed only with --move-cards-to, which moves its cards, in order, to \
            the bottom of another column. Its directory is removed once nothing is left in it.
            """,
        arguments: [.required("id", help: "The column's id.")],
        options: [
            .option("move-cards-to", valueName: "column", help: "Move the column's cards to this column first."),
        ])

    static let move = CommandSpec(
        name: "move",
        abstract: "Change a column's place in the board order.",
        usage: "kanban column move <id> (--to <position> | --before <column> | --after <column> | --first | --last)",
        arguments: [.required("id", help: "The column's id.")],
        options: placementOptions(including: ["to", "first", "last"]),
        exclusiveOptions: [["to", "before", "after", "first", "last"]])

    static let collapse = CommandSpec(
        name: "collapse",
        abstract: "Show a column narrow in board views.",
        arguments: [.required("id", help: "The column's id.")])

    static let expand = CommandSpec(
        name: "expand",
        abstract: "Show a collapsed column at full width again.",
        arguments: [.required("id", help: "The column's id.")])

    static let limit = CommandSpec(
        name: "limit",
        abstract: "Set or remove a column's WIP limit: the most cards it should hold at once.",
        discussion: """
            Writes 'wip-limit: N' in the column's entry in board.md (SimpleKanban reads the board as before, and \
            drops the key when it rewrites the columns). 'kanban board', the full-screen board and the page show \
            the count against the limit and mark a column over it; 'add' and 'move' into a full column warn, or \
            refuse with --strict or when board.md says 'wip-limits: strict'; 'kanban report' counts the days each \
            column spent over its limit, and 'kanban report --check' fails while one is.
            """,
        arguments: [
            .required("id", help: "The column's id."),
            .required("limit", help: "The most cards, from 1 to 100000; 'none' removes the limit."),
        ])

    static let queue = CommandSpec(
        name: "queue",
        abstract: "Mark a column as a queue, where cards wait rather than being worked on.",
        discussion: """
            Writes 'queue: true' in the column's entry in board.md (--off removes it). The report's flow efficiency \
            is the share of cycle time cards spent in columns that are not queues (docs/report.md).
            """,
        arguments: [.required("id", help: "The column's id.")],
        options: [.flag("off", help: "Mark the column as active again.")])

    /// `--at`/`--to N`, `--before ID`, `--after ID` and, for `move`, `--first` and `--last`.
    private static func placementOptions(including extra: Set<String>) -> [OptionSpec] {
        var options: [OptionSpec] = []
        if extra.contains("to") {
            options.append(.option("to", valueName: "position", help: "Put it at this place, 1 being the first column."))
        } else {
            options.append(.option("at", valueName: "position", help: "Put it at this place, 1 being the first column."))
        }
        options.append(.option("before", valueName: "column", help: "Put it just before this column."))
        options.append(.option("after", valueName: "column", help: "Put it just after this column."))
        if extra.contains("first") { options.append(.flag("first", help: "Make it the first column.")) }
        if extra.contains("last") { options.append(.flag("last", help: "Make it the last column.")) }
        return options
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch arguments.subcommandPath.dropFirst().first {
        case "add": return try runAdd(arguments, context)
        case "rename": return try runRename(arguments, context)
        case "remove": return try runRemove(arguments, context)
        case "move": return try runMove(arguments, context)
        case "collapse": return try runCollapse(arguments, context, isCollapsed: true)
        case "expand": return try runCollapse(arguments, context, isCollapsed: false)
        case "limit": return try runLimit(arguments, context)
        case "queue": return try runQueue(arguments, context)
        default: return try runList(arguments, context)
        }
    }

    // MARK: Subcommands

    static func runList(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let snapshot = try store.load(.active)
        context.warn(snapshot.diagnostics)
        let columns = snapshot.board.columns
        var counts: [String: Int] = [:]
        for card in snapshot.cards { counts[card.column, default: 0] += 1 }
        if arguments.flag("json") {
            context.printJSON(.array(columns.map { column in
                .object([
                    "id": .string(column.id),
                    "name": .string(column.name),
                    "collapsed": .bool(column.isCollapsed),
                    "cards": .number(String(counts[column.id] ?? 0)),
                    "limit": column.wipLimit.map { .number(String($0)) } ?? .null,
                    "queue": .bool(column.isQueue),
                ])
            }))
            return .success
        }
        let stylist = context.stylist
        let idWidth = min(32, columns.map { $0.id.terminalWidth }.max() ?? 0)
        let nameWidth = min(40, columns.map { $0.name.terminalWidth }.max() ?? 0)
        func shown(_ column: Column) -> String {
            let count = String(counts[column.id] ?? 0)
            return column.wipLimit.map { count + "/" + String($0) } ?? count
        }
        let countWidth = columns.map { shown($0).count }.max() ?? 1
        for column in columns {
            let count = counts[column.id] ?? 0
            let over = column.wipLimit.map { count > $0 } ?? false
            let figure = shown(column).padded(toWidth: countWidth, alignment: .trailing)
            var line = stylist.apply(.cyan, to: column.id.padded(toWidth: idWidth)) + "  "
                + column.name.truncated(toWidth: nameWidth).padded(toWidth: nameWidth) + "  "
                + (over ? stylist.apply(.red, to: figure) : figure) + (count == 1 && column.wipLimit == nil ? " card " : " cards")
            if over { line += stylist.apply(.red, to: "  over its limit") }
            if column.isQueue { line += stylist.apply(.dim, to: "  queue") }
            if column.isCollapsed { line += stylist.apply(.dim, to: "  collapsed") }
            context.print(trimmingTrailingSpaces(line))
        }
        return .success
    }

    static func runAdd(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let name = arguments.argument("name") ?? id
        let position = try positionArgument(arguments, option: "at")
        let store = try context.store()
        let board = try store.loadBoard()
        var index: Int?
        switch try arguments.exclusiveOption(among: ["at", "before", "after"]) {
        case "at":
            if let position {
                guard position <= board.columns.count + 1 else {
                    throw outOfRange(position, count: board.columns.count + 1)
                }
                index = position - 1
            }
        case "before": index = try columnIndex(arguments.value("before") ?? "", in: board)
        case "after": index = try columnIndex(arguments.value("after") ?? "", in: board) + 1
        default: index = nil
        }
        let change = try store.addColumn(id: id, name: name, at: index)
        context.say("added column \(id) \(quoted(name.trimmingCharacters(in: .whitespaces)))")
        try context.commit(change, message: .board("Add column \(quoted(name.trimmingCharacters(in: .whitespaces)))", "Column", id))
        return .success
    }

    static func runRename(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let name = arguments.argument("name") ?? ""
        let store = try context.store()
        let board = try store.loadBoard()
        let old = board.columns[try columnIndex(id, in: board)].name
        let change = try store.renameColumn(id, to: name)
        context.say("renamed column \(id): \(old) → \(name.trimmingCharacters(in: .whitespaces))")
        try context.commit(change, message: .board("Rename column \(quoted(old)) to \(quoted(name.trimmingCharacters(in: .whitespaces)))", "Column", id))
        return .success
    }

    static func runRemove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let target = arguments.value("move-cards-to")
        let store = try context.store()
        let change: BoardChange
        do {
            change = try store.removeColumn(id, movingCardsTo: target)
        } catch {
            throw explained(error, removing: id, store: store)
        }
        let moved = change.removedPaths.count
        if moved > 0, let target {
            context.say("removed column \(id) (moved \(moved) card\(moved == 1 ? "" : "s") to \(target))")
        } else {
            context.say("removed column \(id)")
        }
        try context.commit(change, message: .board("Remove column \(id)" + (moved > 0 ? " (moving its cards to \(target ?? ""))" : ""), "Column", id))
        return .success
    }

    static func runMove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let position = try positionArgument(arguments, option: "to")
        guard let choice = try arguments.exclusiveOption(among: ["to", "before", "after", "first", "last"]) else {
            throw arguments.usageError("say where to: --to N, --before ID, --after ID, --first or --last")
        }
        let store = try context.store()
        let board = try store.loadBoard()
        let from = try columnIndex(id, in: board)
        // The library removes the column, then inserts it at the index, so places are counted without it.
        let others = board.columns.filter { $0.id != id }
        let index: Int
        switch choice {
        case "to":
            let position = position ?? 1
            guard position <= board.columns.count else { throw outOfRange(position, count: board.columns.count) }
            index = position - 1
        case "before", "after":
            let reference = arguments.value(choice) ?? ""
            guard reference != id else {
                throw KanbanError(.invalidArgument, "cannot put column '\(id)' \(choice) itself")
            }
            _ = try columnIndex(reference, in: board)
            let referenceIndex = others.firstIndex { $0.id == reference } ?? others.count
            index = choice == "before" ? referenceIndex : referenceIndex + 1
        case "first": index = 0
        default: index = others.count
        }
        let count = board.columns.count
        if index == from {
            context.say("column \(id) is already at position \(index + 1) of \(count)")
            return .success
        }
        let change = try store.moveColumn(id, to: index)
        context.say("moved column \(id) to position \(index + 1) of \(count)")
        try context.commit(change, message: .board("Move column \(quoted(board.columns[from].name)) to position \(index + 1)", "Column", id))
        return .success
    }

    static func runCollapse(_ arguments: ParsedArguments, _ context: CommandContext, isCollapsed: Bool) throws -> ExitCode {
        let word = isCollapsed ? "collapsed" : "expanded"
        return try changeSetting(arguments, context, isAlready: { $0.isCollapsed == isCollapsed }, already: "is already \(word)",
                                 done: { "\(word) column \($0)" }, subject: { "\(isCollapsed ? "Collapse" : "Expand") column \($0)" }) { store, id in
            try store.setColumnCollapsed(id, isCollapsed)
        }
    }

    static func runLimit(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let text = arguments.argument("limit") ?? ""
        let limit: Int?
        if ["none", "off"].contains(text.lowercased()) {
            limit = nil
        } else if let value = Column.wipLimit(from: text) {
            limit = value
        } else {
            throw arguments.usageError("a WIP limit is a whole number from 1 to \(Column.wipLimitRange.upperBound), or 'none'; not '\(text)'")
        }
        return try changeSetting(arguments, context, isAlready: { $0.wipLimit == limit },
                                 already: limit.map { "already has a WIP limit of \($0)" } ?? "has no WIP limit",
                                 done: { id in limit.map { "column \(id): WIP limit \($0)" } ?? "column \(id): no WIP limit" },
                                 subject: { name in limit.map { "Limit column \(name) to \($0)" } ?? "Remove the WIP limit of column \(name)" }) { store, id in
            try store.setColumnLimit(id, limit)
        }
    }

    static func runQueue(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let isQueue = !arguments.flag("off")
        let word = isQueue ? "a queue" : "active"
        return try changeSetting(arguments, context, isAlready: { $0.isQueue == isQueue }, already: "is already \(word)",
                                 done: { "column \($0) is \(word)" }, subject: { "Mark column \($0) as \(word)" }) { store, id in
            try store.setColumnQueue(id, isQueue)
        }
    }

    /// Changes one setting of the column the `id` argument names, unless it is set so already: says what it did
    /// (`done(id)`, or `column <id> <already>`) and commits as asked, with `subject` of the column's quoted name.
    private static func changeSetting(_ arguments: ParsedArguments, _ context: CommandContext, isAlready: (Column) -> Bool,
                                      already: String, done: (String) -> String, subject: (String) -> String,
                                      change: (BoardStore, String) throws -> BoardChange) throws -> ExitCode {
        let id = arguments.argument("id") ?? ""
        let store = try context.store()
        let board = try store.loadBoard()
        let column = board.columns[try columnIndex(id, in: board)]
        if isAlready(column) {
            context.say("column \(id) \(already)")
            return .success
        }
        let made = try change(store, id)
        context.say(done(id))
        try context.commit(made, message: .board(subject(quoted(column.name)), "Column", id))
        return .success
    }

    // MARK: Helpers

    /// The 1-based position given to `option`, checked to be a whole number from 1.
    private static func positionArgument(_ arguments: ParsedArguments, option: String) throws -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let position = Int(text), position >= 1 else {
            throw arguments.usageError("'--\(option)' takes a position from 1 (the first column), not '\(text)'")
        }
        return position
    }

    /// The library's error, or for a column that holds cards, one that names the option to use.
    private static func explained(_ error: KanbanError, removing id: String, store: BoardStore) -> KanbanError {
        guard error.code == .columnNotEmpty else { return error }
        let count = (try? store.load(.active, columns: [id]).cards.count) ?? 0
        let cards = count == 1 ? "1 card" : count > 1 ? "\(count) cards" : "cards"
        return KanbanError(
            .columnNotEmpty,
            "column '\(id)' holds \(cards); give '--move-cards-to ID' to move them to another column (nothing was changed)",
            candidates: error.candidates)
    }

    private static func outOfRange(_ position: Int, count: Int) -> KanbanError {
        KanbanError(.invalidArgument, "position \(position) is out of range: use 1 to \(count)")
    }

    /// The index of column `id` on `board`, or the library's not-found error listing the columns.
    static func columnIndex(_ id: String, in board: Board) throws(KanbanError) -> Int {
        guard let index = board.columns.firstIndex(where: { $0.id == id }) else {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
        return index
    }

    /// A display name in double quotes, for the line a change prints.
    static func quoted(_ name: String) -> String {
        "\"" + name + "\""
    }

    private static func trimmingTrailingSpaces(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
