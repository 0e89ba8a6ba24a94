import Foundation
import KanbanCore

/// `kanban edit CARD`.
enum EditCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Open a card in your editor.",
        discussion: """
            Runs $VISUAL, else $EDITOR, else vi, on the card's file. Afterwards the card is read back and any \
            problem is reported as path:line:column; your text is never thrown away.
            """,
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let card = try store.card(context.cardReference(arguments.argument("card") ?? ""), in: .all)
        return try edit(card, store: store, context: context)
    }

    /// Opens `card` in the editor and checks the file afterwards.
    static func edit(_ card: Card, store: BoardStore, context: CommandContext) throws -> ExitCode {
        let editor = [context.environment["VISUAL"], context.environment["EDITOR"]]
            .compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
        let path = store.directory + "/" + card.path
        context.output.flush()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor may carry arguments (`code --wait`), so the shell splits it; the path is passed separately.
        process.arguments = ["-c", "\(editor) \"$1\"", "kanban-edit", path]
        do {
            try process.run()
        } catch {
            throw CommandFailure(message: "cannot start the editor '\(editor)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw CommandFailure(message: "the editor '\(editor)' exited with status \(process.terminationStatus); the card is as the editor left it")
        }
        do {
            _ = try store.card(card.path, in: .all)
        } catch {
            context.report(error)
            context.errorOutput.writeLine("  The file is kept as you wrote it; run 'kanban edit \(card.path)' to fix it.")
            return .failure
        }
        return .success
    }
}
