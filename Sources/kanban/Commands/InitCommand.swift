import Foundation
import KanbanCore

/// `kanban init [DIR] [--title T] [--columns SPEC]`.
enum InitCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Create a new board.",
        discussion: """
            Writes board.md, a directory per column under cards/, and archive/. Refuses to touch a directory \
            that already holds a board.

            Example:
              kanban init roadmap --title "Roadmap" --columns "ideas:Ideas,next:Next,done:Done"
            """,
        arguments: [.optional("directory", help: "Where to create the board (default: the current directory).")],
        options: [
            .option("title", valueName: "title", help: "The board's title (default: the directory's name)."),
            .option("columns", valueName: "id:Name,...", help: "The columns, in order.", defaultValue: "todo:To Do,in-progress:In Progress,done:Done"),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let directory = context.absolute(arguments.argument("directory") ?? ".")
        let specification = arguments.value("columns") ?? ""
        var columns: [Column] = []
        for part in specification.split(separator: ",") {
            let pieces = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let id = pieces.first, !id.isEmpty else {
                throw arguments.usageError("--columns takes 'id:Name' pairs separated by commas, such as 'todo:To Do,done:Done'")
            }
            guard Column.isValidID(id) else {
                throw arguments.usageError("'\(id)' cannot be a column id: use letters, digits, '-', '_' or '.', starting with a letter or digit")
            }
            guard !columns.contains(where: { $0.id == id }) else {
                throw arguments.usageError("column id '\(id)' is given twice in --columns")
            }
            if let other = columns.first(where: { $0.id.lowercased() == id.lowercased() }) {
                throw arguments.usageError(Column.caseCollisionMessage(id, other.id))
            }
            columns.append(Column(id: id, name: pieces.count > 1 && !pieces[1].isEmpty ? pieces[1] : id))
        }
        guard !columns.isEmpty else { throw arguments.usageError("--columns needs at least one column") }
        let name = (FileSystemPaths.resolved(directory) as NSString).lastPathComponent
        let title = arguments.value("title") ?? (name.isEmpty ? "Board" : name)
        if FileManager.default.fileExists(atPath: directory + "/board.md") {
            throw KanbanError(.alreadyExists, "'\(arguments.argument("directory") ?? ".")' already holds a board (board.md); nothing was changed")
        }
        let body = """
            # \(title)

            ## Card Template

            ## Description

            ## Acceptance criteria

            """
        let store = try BoardStore.create(at: directory, board: Board(title: title, columns: columns, body: body))
        context.say("created board '\(title)' in \(store.directory) with columns \(columns.map(\.name).joined(separator: ", "))")
        return .success
    }
}
