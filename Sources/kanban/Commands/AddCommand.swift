import Foundation
import KanbanCore
import KanbanServer

/// `kanban add TITLE [--column ID] [--label ID]... [--body TEXT | --body-file F | -] [placement] [--edit]`.
enum AddCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { !arguments.flag("edit") }

    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a card.",
        discussion: """
            The card goes to the bottom of the first column unless told otherwise, with the board's card template \
            as its body. Prints the new card's path.

            Examples:
              kanban add "Fix login bug" --label bug --top
              echo "Steps to reproduce..." | kanban add "Crash on start" --column todo -
            """,
        arguments: [
            .required("title", help: "The card's title."),
            .optional("stdin", help: "Give '-' to read the body from standard input."),
        ],
        options: [
            .option("column", short: "c", valueName: "id", help: "The column (default: the first)."),
            .option("label", short: "l", valueName: "id", help: "A label to put on the card; repeat for more.", isRepeatable: true),
            .option("body", valueName: "text", help: "The body (default: the board's card template)."),
            .option("body-file", valueName: "file", help: "Read the body from a file ('-' for standard input)."),
        ] + CommonOptions.placement + [
            .flag("edit", short: "e", help: "Open the new card in $VISUAL, $EDITOR or vi."),
            CommonOptions.strictLimits,
            CommonOptions.json,
        ],
        exclusiveOptions: [CommonOptions.placementGroup, ["body", "body-file"]])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let title = arguments.argument("title") ?? ""
        let dash = arguments.argument("stdin")
        if let dash, dash != "-" {
            throw arguments.usageError("unexpected argument '\(dash)'; quote a title with spaces, or give '-' to read the body from standard input")
        }
        if dash != nil && (arguments.isGiven("body") || arguments.isGiven("body-file")) {
            throw arguments.usageError("give the body once: '-', --body or --body-file")
        }
        let store = try context.store()
        let body = try BodyInput.read(text: arguments.value("body"), file: arguments.value("body-file"),
                                      standardInput: dash != nil, context: context)
        let change = try store.createCard(title: title, in: arguments.value("column"), labels: arguments.values("label"),
                                          body: body, placement: try arguments.placement(context) ?? .bottom,
                                          strictLimits: arguments.flag("strict"))
        context.warn(change.overLimit)
        guard let card = change.card else { return .failure }
        if arguments.flag("json") {
            context.printJSON(JSON(card: card, includeBody: true))
        } else {
            context.say(context.displayPath(card.path, store: store))
        }
        if arguments.flag("edit") {
            let status = try EditCommand.edit(card, store: store, context: context)
            if status == .success { try context.commit(change) }
            return status
        }
        try context.commit(change)
        return .success
    }
}
