import KanbanCore

/// `kanban __complete columns|labels|cards|archived-cards [--describe]`: the values completion scripts offer.
///
/// Hidden from help: the scripts from `kanban completion` call it at completion time. It never writes to standard
/// error and always exits 0, so a shell outside any board, or on a broken one, simply completes nothing.
enum CompleteCommand: KanbanCommand {
    /// What can be listed.
    enum Kind: String, CaseIterable {
        case columns, labels, cards
        case archivedCards = "archived-cards"
    }

    static let spec = CommandSpec(
        name: "__complete",
        abstract: "Print the values completion scripts offer, one per line.",
        discussion: """
            columns and labels print ids; cards and archived-cards print slugs, in board order. Outside a board, \
            or on any error, prints nothing and exits 0.
            """,
        arguments: [.optional("kind", help: "columns, labels, cards or archived-cards.")],
        options: [.flag("describe", help: "Follow each value with a tab and its name or title.")],
        exitStatuses: [ExitStatusHelp(ExitCode(rawValue: 0), "Always, even when nothing could be listed.")],
        isHidden: true)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard let kind = arguments.argument("kind").flatMap(Kind.init(rawValue:)) else { return .success }
        guard let values = try? values(of: kind, context: context) else { return .success }
        let describe = arguments.flag("describe")
        for (value, description) in values where isPrintable(value) {
            context.print(describe && isPrintable(description) ? value + "\t" + description : value)
        }
        return .success
    }

    /// The values of `kind` on the board, each with its description, without duplicates.
    static func values(of kind: Kind, context: CommandContext) throws -> [(String, String)] {
        let store = try context.store()
        var seen: Set<String> = []
        let values: [(String, String)]
        switch kind {
        case .columns:
            values = try store.loadBoard().columns.map { ($0.id, $0.name) }
        case .labels:
            values = try store.loadBoard().labels.map { ($0.id, $0.name) }
        case .cards:
            values = try store.load(.active).cards.map { ($0.slug, $0.title) }
        case .archivedCards:
            values = try store.load(.archived).cards.map { ($0.slug, $0.title + ($0.archivedOn.map { " (archived \($0))" } ?? "")) }
        }
        return values.filter { seen.insert($0.0).inserted }
    }

    /// Whether `text` fits on one line of the output (no line breaks or tabs to confuse the scripts).
    private static func isPrintable(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\t" }
    }
}
