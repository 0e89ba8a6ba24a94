import Foundation
import KanbanCore
import KanbanServer

/// `kanban boards [DIR] [--json]`: every board under a directory, as `serve`, `mcp`, `tui` and `report` name them.
enum BoardsCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "boards",
        abstract: "List the boards under a directory.",
        discussion: """
            Every directory under DIR (default: the top of the git work tree you are in, else the current directory) \
            that holds a board.md, sorted by path: its name (the path relative to DIR, '.' for DIR itself), title, \
            number of columns and of cards on the board (not archived). Hidden directories (.git), .build, \
            node_modules and a board's own cards/ and archive/ are not searched, symbolic links to directories \
            are not followed, and the search goes \(BoardDiscovery.maximumDepth) directories down at most.

            A board.md that does not read is reported on standard error as path:line:column: error: message and \
            listed in --json with its 'error'; the exit status is still 0, as for every listing ('kanban doctor' \
            in that board fails on it).

            The names are the ones 'kanban serve DIR' and 'kanban mcp DIR' give the boards (see docs/boards.md).

            --json prints an array, one object a board: {"name", "path", "title", "columns", "cards"}, and \
            {"name", "path", "error"} for a board.md that does not read.

            Examples:
              kanban boards
              kanban boards ~/src --json
            """,
        arguments: [.optional("directory", help: "Where to look (default: the git work tree's top, else the current directory).")],
        options: [
            .flag("json", help: "Print JSON."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The boards were listed (also when some board.md does not read, or there is none)."),
            ExitStatusHelp(.failure, "The directory does not exist, or holds more boards or directories than a search looks at."),
            ExitStatusHelp(.usage, "Usage error: unknown option or bad value."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let directory = arguments.argument("directory").map(context.absolute) ?? workTreeTop(from: context.currentDirectory) ?? context.currentDirectory
        let found = try BoardDiscovery.boards(under: directory)
        let rows = found.map { board in Row(found: board, cards: board.board == nil ? nil : cardCount(board, context)) }
        for row in rows {
            if let error = row.found.error, let location = row.found.errorLocation {
                let label = context.errorStylist.apply(.bold + .red, to: "error")
                context.errorOutput.writeLine("\(location): \(label): \(error.message)")
            }
        }
        if arguments.flag("json") {
            context.printJSON(.array(rows.map(\.json)))
            return .success
        }
        let readable = rows.filter { $0.found.board != nil }
        if rows.isEmpty {
            context.errorOutput.writeLine("no boards under \(directory)")
        }
        let nameWidth = readable.map { $0.found.name.terminalWidth }.max() ?? 0
        let titleWidth = min(48, readable.map { ($0.found.board?.title ?? "").terminalWidth }.max() ?? 0)
        for row in readable {
            guard let board = row.found.board else { continue }
            let columns = "\(board.columns.count) column\(board.columns.count == 1 ? "" : "s")"
            let cards = row.cards.map { "\($0) card\($0 == 1 ? "" : "s")" } ?? "cards unreadable"
            context.print("\(row.found.name.padded(toWidth: nameWidth))  \(board.title.padded(toWidth: titleWidth))  \(columns), \(cards)")
        }
        return .success
    }

    /// One board as listed: where it is, and how many cards it holds (nil when they could not be read).
    struct Row {
        var found: FoundBoard
        var cards: Int?

        var json: JSON {
            var members: [String: JSON] = ["name": .string(found.name), "path": .string(found.directory)]
            if let board = found.board {
                members["title"] = .string(board.title)
                members["columns"] = .number(String(board.columns.count))
                members["cards"] = cards.map { .number(String($0)) } ?? .null
            }
            if let error = found.error {
                members["error"] = .string("\(found.errorLocation ?? BoardFile.path): \(error.message)")
            }
            return .object(members)
        }
    }

    /// The number of cards on `found`'s board (not archived), read as `kanban list` reads them.
    static func cardCount(_ found: FoundBoard, _ context: CommandContext) -> Int? {
        guard let store = try? BoardStore(directory: found.directory, index: context.indexPlacement) else { return nil }
        return (try? store.load())?.cards.count
    }

    /// The top of the git work tree holding `directory` (the nearest directory upwards with a `.git`), or nil.
    static func workTreeTop(from directory: String) -> String? {
        var current = FileSystemPaths.resolved(directory)
        while true {
            if FileManager.default.fileExists(atPath: current + "/.git") { return current }
            guard current != "/", !current.isEmpty else { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
    }
}
