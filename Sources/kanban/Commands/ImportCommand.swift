import Foundation
import KanbanCore
import KanbanServer

/// `kanban import trello|github|backlog|obsidian|csv|json PATH [--apply] [--map NAME=COLUMN]... [--json]`.
enum ImportCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { arguments.flag("apply") && !isNewBoard(arguments) }

    static let spec = CommandSpec(
        name: "import",
        abstract: "Bring in the cards of another tracker's export (Trello, GitHub, Backlog.md, Obsidian, CSV).",
        discussion: """
            Reads PATH as SOURCE exports it and prints what importing it would do: the columns and labels it \
            declares, and for each card whether it is created, updated (and what changes) or unchanged. Nothing \
            is written without --apply, which writes it all in one change (and one commit with --commit).

            Sources: trello (a board's JSON export), github ('gh issue list --json ...' or 'gh project \
            item-list --format json' output), backlog (a Backlog.md project folder), obsidian (an Obsidian Kanban \
            board file), csv (a table with a header row; 'kanban export csv' writes one), json ('kanban export \
            json'). docs/import.md has each source's mapping.

            Each card keeps its id in the source in its 'source' key (and a link back where the source has \
            one), so that importing the same export again updates the cards it made instead of adding them \
            twice. A column of the source lands in the board's column of the same name (or id), else in a new \
            column; --map NAME=COLUMN puts it in another (a column id or name of the board, or the id of a new \
            column). Labels are declared as the source names them. When --board names a directory without a \
            board, --apply makes the board there, titled and with columns as the source has them.

            Examples:
              kanban import trello board.json                 # what would happen
              kanban import trello board.json --apply --commit
              gh issue list --state all --json number,title,body,state,labels,assignees,url,createdAt,updatedAt > issues.json
              kanban import github issues.json --map Open=todo --apply
              kanban import csv cards.csv --board ../new-board --apply
            """,
        usage: "kanban import <source> <path> [--apply] [--map <name>=<column>]... [--json]",
        arguments: [
            .required("source", help: "trello, github, backlog, obsidian, csv or json."),
            .required("path", help: "The export: a file, or the folder of a Backlog.md project."),
        ],
        options: [
            .flag("apply", help: "Write the import (without it, only say what it would do)."),
            .option("map", short: "m", valueName: "name=column", help: "Put the source's column NAME in COLUMN; repeat for more.", isRepeatable: true),
            .flag("json", help: "Print the plan as JSON."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Planned (or, with --apply, imported)."),
            ExitStatusHelp(.failure, "The export cannot be read (nothing is written), or the board cannot be changed."),
            ExitStatusHelp(.usage, "Usage error: an unknown source, a --map without '='."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let name = arguments.argument("source") ?? ""
        guard let format = ImportFormat(rawValue: name) else {
            throw arguments.usageError("unknown source '\(name)'; give one of \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var columnMap: [String: String] = [:]
        for entry in arguments.values("map") {
            guard let equals = entry.lastIndex(of: "="), equals != entry.startIndex, entry.index(after: equals) != entry.endIndex else {
                throw arguments.usageError("'--map \(entry)' needs NAME=COLUMN (the source's column name, then the board's column)")
            }
            columnMap[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let path = arguments.argument("path") ?? ""
        let source = try ImportedBoard(reading: context.absolute(path), as: format, shownAs: path)
        let apply = arguments.flag("apply")

        if isNewBoard(arguments), let directory = arguments.value("board") {
            return try importIntoNewBoard(source, directory: context.absolute(directory), shownAs: directory, columnMap: columnMap,
                                          apply: apply, arguments, context)
        }
        let store = try context.store()
        let title = try store.loadBoard().title
        if !apply {
            let plan = try store.planImport(source, columnMap: columnMap)
            show(plan, board: title, applied: false, from: path, arguments, context)
            return .success
        }
        let (plan, change) = try store.applyImport(source, columnMap: columnMap)
        show(plan, board: title, applied: true, from: path, arguments, context)
        if !plan.isEmpty { try context.commit([change], message: commitMessage(plan, from: path)) }
        return .success
    }

    /// Whether `--board` names a directory that holds no board yet (the import makes one).
    static func isNewBoard(_ arguments: ParsedArguments) -> Bool {
        guard let directory = arguments.value("board") else { return false }
        return !FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("board.md"))
    }

    /// Plans (or applies) the import into a board made for it at `directory`; a dry run plans against one made in a
    /// temporary directory and removed.
    private static func importIntoNewBoard(_ source: ImportedBoard, directory: String, shownAs: String, columnMap: [String: String],
                                           apply: Bool, _ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let title = source.title ?? ((FileSystemPaths.resolved(directory) as NSString).lastPathComponent)
        let board = try BoardStore.board(for: source, title: title.isEmpty ? "Board" : title, columnMap: columnMap)
        let path = arguments.argument("path") ?? ""
        guard apply else {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-import-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let plan = try BoardStore.create(at: scratch, board: board).planImport(source, columnMap: columnMap)
            if !arguments.flag("json") { context.say("would create board '\(board.title)' in \(shownAs)") }
            show(plan, board: board.title, applied: false, from: path, arguments, context)
            return .success
        }
        let store = try BoardStore.create(at: directory, board: board)
        if !arguments.flag("json") { context.say("created board '\(board.title)' in \(shownAs)") }
        let (plan, change) = try store.applyImport(source, columnMap: columnMap)
        show(plan, board: board.title, applied: true, from: path, arguments, context)
        let made = BoardChange(card: nil, previous: nil, writtenPaths: ["board.md"] + change.writtenPaths)
        try context.commit([made], message: commitMessage(plan, from: path))
        return .success
    }

    private static func commitMessage(_ plan: ImportPlan, from path: String) -> CommitMessage {
        var counts: [String] = []
        if plan.createdCount > 0 { counts.append("\(plan.createdCount) new") }
        if plan.updatedCount > 0 { counts.append("\(plan.updatedCount) updated") }
        let name = (path as NSString).lastPathComponent
        return CommitMessage(subject: "Import \(counts.joined(separator: ", ")) card\(plan.createdCount + plan.updatedCount == 1 ? "" : "s") from \(plan.format.displayName) (\(name))")
    }

    /// The plan, as text or JSON.
    private static func show(_ plan: ImportPlan, board: String, applied: Bool, from path: String, _ arguments: ParsedArguments,
                             _ context: CommandContext) {
        if arguments.flag("json") {
            context.printJSON(json(plan, applied: applied))
            return
        }
        let stylist = context.stylist
        func line(_ text: String) { context.output.writeLine(text) }
        if !applied {
            line("Importing \(path) (\(plan.format.displayName)) into '\(board)' would do this; nothing is written without --apply.")
        }
        if !plan.columns.isEmpty {
            line(stylist.apply(.bold, to: "Columns"))
            for column in plan.columns {
                line("  \(column.source) → \(column.id)\(column.isNew ? stylist.apply(.green, to: " (new)") : "")")
            }
        }
        if !plan.labels.isEmpty {
            line(stylist.apply(.bold, to: "Labels"))
            for label in plan.labels {
                line("  \(label.source) → \(label.label.id)\(label.isNew ? stylist.apply(.green, to: " (new, \(label.label.color ?? ""))") : "")")
            }
        }
        let shown = plan.steps.filter { $0.action != .unchanged }
        if !shown.isEmpty {
            line(stylist.apply(.bold, to: "Cards"))
            func place(_ step: ImportPlan.Step) -> String { step.isArchived ? "archive" : step.column }
            let width = shown.map { $0.slug.count }.max() ?? 0
            let placeWidth = shown.map { place($0).count }.max() ?? 0
            for step in shown {
                let action = step.action == .create ? stylist.apply(.green, to: "create") : stylist.apply(.yellow, to: "update")
                let changes = step.action == .update ? "  (\(step.changes.joined(separator: ", ")))" : ""
                line("  \(action)  \(step.slug.padding(toLength: width, withPad: " ", startingAt: 0))  "
                     + "\(place(step).padding(toLength: placeWidth, withPad: " ", startingAt: 0))  \(step.title)\(changes)")
            }
        }
        let verb = applied ? ["created", "updated"] : ["to create", "to update"]
        line("\(plan.createdCount) \(verb[0]), \(plan.updatedCount) \(verb[1]), \(plan.unchangedCount) unchanged"
             + (plan.columns.contains(where: \.isNew) || plan.labels.contains(where: \.isNew)
                ? "; \(plan.columns.count { $0.isNew }) new column\(plan.columns.count { $0.isNew } == 1 ? "" : "s"), \(plan.labels.count { $0.isNew }) new label\(plan.labels.count { $0.isNew } == 1 ? "" : "s")" : ""))
    }

    static func json(_ plan: ImportPlan, applied: Bool) -> JSON {
        .object([
            "format": .string(plan.format.rawValue),
            "applied": .bool(applied),
            "columns": .array(plan.columns.map { .object(["source": .string($0.source), "id": .string($0.id), "new": .bool($0.isNew)]) }),
            "labels": .array(plan.labels.map {
                .object(["source": .string($0.source), "id": .string($0.label.id), "name": .string($0.label.name),
                         "color": $0.label.color.map(JSON.string) ?? .null, "new": .bool($0.isNew)])
            }),
            "cards": .array(plan.steps.map {
                .object(["action": .string($0.action.rawValue), "source": $0.sourceID.map(JSON.string) ?? .null,
                         "slug": .string($0.slug), "title": .string($0.title), "column": .string($0.column),
                         "archived": .bool($0.isArchived), "path": .string($0.path), "changes": .array($0.changes.map(JSON.string))])
            }),
            "created": .number(String(plan.createdCount)),
            "updated": .number(String(plan.updatedCount)),
            "unchanged": .number(String(plan.unchangedCount)),
        ])
    }
}
