import KanbanCore
import KanbanServer

/// `kanban set CARD [--title T] [--add-label ID]... [--remove-label ID]... [--body TEXT | --body-file F]
/// [--field KEY=VALUE]... [--unset KEY]...`.
enum SetCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "set",
        abstract: "Change a card's title, labels, body or other fields.",
        discussion: """
            Only the lines of the fields that change are rewritten; every other byte of the file stays as it \
            was. 'modified' is updated. The file keeps its name: the slug is the card's identity.

            Examples:
              kanban set fix-login --title "Fix login on Safari" --add-label urgent
              kanban set fix-login --field due=2026-12-01 --field assignee=ana --unset estimate
            """,
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path.")],
        options: [
            .option("title", short: "t", valueName: "title", help: "A new title."),
            .option("add-label", valueName: "id", help: "Add a label; repeat for more.", isRepeatable: true),
            .option("remove-label", valueName: "id", help: "Remove a label; repeat for more.", isRepeatable: true),
            .option("body", valueName: "text", help: "A new body."),
            .option("body-file", valueName: "file", help: "Read the new body from a file ('-' for standard input)."),
            .option("field", valueName: "key=value", help: "Set another frontmatter field; repeat for more.", isRepeatable: true),
            .option("unset", valueName: "key", help: "Remove another frontmatter field; repeat for more.", isRepeatable: true),
            CommonOptions.json,
        ],
        exclusiveOptions: [["body", "body-file"]])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var fields: [YAMLMapEntry] = []
        for assignment in arguments.values("field") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw arguments.usageError("--field takes KEY=VALUE, such as 'due=2026-12-01' (got '\(assignment)')")
            }
            fields.append(YAMLMapEntry(key: String(assignment[..<equals]), value: .unquoted(String(assignment[assignment.index(after: equals)...]))))
        }
        let update = CardUpdate(
            title: arguments.value("title"), addedLabels: arguments.values("add-label"),
            removedLabels: arguments.values("remove-label"),
            body: try BodyInput.read(text: arguments.value("body"), file: arguments.value("body-file"), standardInput: false, context: context),
            fields: fields, removedFields: arguments.values("unset"))
        guard !update.isEmpty else {
            throw arguments.usageError("nothing to change: give --title, --add-label, --remove-label, --body, --field or --unset")
        }
        let store = try context.store()
        let change = try store.updateCard(context.cardReference(arguments.argument("card") ?? ""), update, in: .all)
        guard let card = change.card else { return .failure }
        if arguments.flag("json") {
            context.printJSON(JSON(card: card, includeBody: true))
            try context.commit(change)
            return .success
        }
        guard let previous = change.previous else {
            try context.commit(change)
            return .success
        }
        var changed: [String] = []
        if card.title != previous.title { changed.append("title") }
        if card.labels != previous.labels { changed.append("labels") }
        if card.body != previous.body { changed.append("body") }
        let fieldKeys = Set(card.fields.map(\.key)).union(previous.fields.map(\.key))
        for key in fieldKeys.sorted() where card.field(key) != previous.field(key) { changed.append(key) }
        context.say(changed.isEmpty ? "\(card.slug): nothing changed" : "updated \(card.slug): \(changed.joined(separator: ", "))")
        try context.commit(change)
        return .success
    }
}
