@testable import KanbanServer
@testable import kanban

/// A small command tree shaped like `kanban`'s, shared by the command-line tests.
enum SampleCommands {
    static let list = CommandSpec(
        name: "list",
        abstract: "List cards.",
        options: [
            .option("column", short: "c", valueName: "id", help: "Only cards in this column.", isRepeatable: true),
            .option("label", short: "l", valueName: "id", help: "Only cards with this label.", isRepeatable: true),
            .flag("archived", help: "Only archived cards."),
            .flag("all", help: "Cards in every column, archived ones too."),
            .option("limit", short: "n", valueName: "count", help: "Show at most this many cards.", defaultValue: "50"),
            .flag("verbose", short: "v", help: "Say more."),
            .flag("debug-dump", help: "Dump internals.", isHidden: true),
        ],
        exclusiveOptions: [["archived", "all"]])

    static let move = CommandSpec(
        name: "move",
        abstract: "Move cards to another column or place.",
        arguments: [
            .repeating("card", help: "A slug, a unique slug prefix or a path."),
            .optional("column", help: "The column to move the cards to."),
        ],
        options: [
            .flag("top", help: "Place at the top of the column."),
            .flag("bottom", help: "Place at the bottom of the column."),
            .option("before", valueName: "card", help: "Place before this card."),
            .option("after", valueName: "card", help: "Place after this card."),
            .option("to", valueName: "column", help: "The column to move the cards to."),
        ],
        exclusiveOptions: [["top", "bottom", "before", "after"]])

    static let show = CommandSpec(
        name: "show",
        abstract: "Show one card.",
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path.")])

    static let column = CommandSpec(
        name: "column",
        abstract: "Manage columns.",
        subcommands: [
            CommandSpec(
                name: "add",
                abstract: "Add a column.",
                arguments: [.required("name", help: "The column's name.")],
                options: [.option("after", valueName: "column", help: "Place it after this column.")]),
            CommandSpec(
                name: "remove", abstract: "Remove an empty column.", arguments: [.required("name", help: "The column.")]
            ),
            CommandSpec(name: "debug", abstract: "Internal.", isHidden: true),
        ])

    static let label = CommandSpec(
        name: "label",
        abstract: "Manage labels.",
        subcommands: [
            CommandSpec(name: "list", abstract: "List labels."),
            CommandSpec(name: "add", abstract: "Add a label.", arguments: [.required("name", help: "The label.")]),
        ],
        defaultSubcommand: "list")

    static let root = CommandSpec(
        name: "kanban",
        abstract: "Kanban boards kept as markdown files in git.",
        options: [
            .option("board", valueName: "directory", help: "The board directory.", isGlobal: true),
            .flag("quiet", short: "q", help: "Print nothing but errors.", isGlobal: true),
            .flag("json", short: "j", help: "Print JSON.", isGlobal: true),
            .noColor,
            .color,
        ],
        subcommands: [list, move, show, column, label],
        version: "1.2.3")

    static let dispatcher = CommandDispatcher(root: root)

    /// Dispatches `line`, split at spaces, and requires a command to run.
    static func run(_ line: String) throws -> ParsedArguments {
        let tokens = line.split(separator: " ").map(String.init)
        guard case .run(let arguments) = try dispatcher.dispatch(tokens) else {
            throw UnexpectedDispatch(line: line)
        }
        return arguments
    }

    /// Dispatches `line` and returns the usage error it must produce.
    static func error(_ line: String) throws -> UsageError {
        let tokens = line.split(separator: " ").map(String.init)
        do {
            let outcome = try dispatcher.dispatch(tokens)
            throw UnexpectedDispatch(line: "\(line) → \(outcome)")
        } catch let error as UsageError {
            return error
        }
    }

    struct UnexpectedDispatch: Error, CustomStringConvertible {
        var line: String
        var description: String { "unexpected dispatch outcome for '\(line)'" }
    }
}
