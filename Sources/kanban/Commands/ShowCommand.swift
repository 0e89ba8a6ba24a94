import KanbanCore
import KanbanServer

/// `kanban show CARD [--json] [--raw]`.
enum ShowCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show one card: its fields, labels and body.",
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path (archived cards too).")],
        options: [
            CommonOptions.json,
            .flag("raw", help: "Print the file exactly as it is on disk."),
        ],
        exclusiveOptions: [["json", "raw"]])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let reference = context.cardReference(arguments.argument("card") ?? "")
        if arguments.flag("raw") {
            // Raw output works for a card that does not parse too: it is how you see what is wrong. Into a pipe it is
            // the file's bytes; on a terminal, control characters in it are shown, not obeyed.
            let bytes = try store.contents(atPath: store.path(of: reference, in: .all))
            if context.isOutputTerminal {
                context.output.write(String(decoding: bytes, as: UTF8.self))
            } else {
                context.output.writeRaw(String(decoding: bytes, as: UTF8.self))
            }
            return .success
        }
        let card = try store.card(reference, in: .all)
        // Where the card stands for agents: what it waits for, what waits for it, who holds it.
        let queue = try? store.workQueue()
        if arguments.flag("json") {
            var json = JSON(card: card, includeBody: true)
            if let queue, case .object(var members) = json {
                members["work"] = WorkJSON.work(of: card, in: queue)
                json = .object(members)
            }
            context.printJSON(json)
            return .success
        }
        let board = try store.loadBoard()
        let stylist = context.stylist
        // Text from the card goes inside our styling: even a colour sequence of its own must show, not act.
        let visible = VisibleControls.visible
        context.print(stylist.apply(.bold, to: visible(card.title)))
        var rows: [(String, String)] = [("slug", card.slug)]
        let columnName = board.columnName(card.column)
        rows.append(("column", card.isArchived ? "archived \(card.archivedOn ?? "") from \(columnName)" : "\(columnName) (\(card.column))"))
        rows.append(("position", visible(card.position ?? "(none)")))
        if !card.labels.isEmpty {
            rows.append(("labels", card.labels.map { label in
                stylist.apply(board.label(withID: label)?.color.map { .foreground(hex: $0) } ?? .plain,
                              to: visible(board.label(withID: label)?.name ?? label))
            }.joined(separator: ", ")))
        }
        if let created = card.created { rows.append(("created", JSON.timestamp(created))) }
        if let modified = card.modified { rows.append(("modified", JSON.timestamp(modified))) }
        rows.append(("path", context.displayPath(card.path, store: store)))
        for field in card.fields {
            rows.append((visible(field.key), visible(describe(field.value))))
        }
        if let queue {
            let waiting = queue.unfinishedDependencies(of: card)
            if !waiting.isEmpty && !card.isArchived { rows.append(("waits for", waiting.map(visible).joined(separator: ", "))) }
            let blocks = queue.dependents(of: card.slug)
            if !blocks.isEmpty { rows.append(("blocks", blocks.map(visible).joined(separator: ", "))) }
        }
        let width = rows.map { $0.0.terminalWidth }.max() ?? 0
        for (key, value) in rows {
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            context.print(stylist.apply(.dim, to: (key + ":").padded(toWidth: width + 1)) + " " + (lines.first.map(String.init) ?? ""))
            for line in lines.dropFirst() { context.print(String(repeating: " ", count: width + 2) + line) }
        }
        let body = card.body ?? ""
        if !body.trimmingBlankLines().isEmpty {
            context.print()
            context.print(visible(body.trimmingBlankLines()))
        }
        return .success
    }

    /// A frontmatter value on one line where it fits: scalars as they are, lists as `a, b`, maps as `k: v; ...`.
    static func describe(_ value: YAMLValue) -> String {
        switch value {
        case .scalar(let scalar): return scalar.value
        case .list(let items): return items.map(describe).joined(separator: ", ")
        case .map(let entries): return entries.map { "\($0.key): \(describe($0.value))" }.joined(separator: "; ")
        }
    }
}
